// Budget accounting: a new candidate costs one evaluation whatever its verdict, the same
// candidate again costs nothing, nothing is charged past the limit; and every method, run
// for real on a suite operator, spends at most its budget through the one evaluator.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include "base/content_hash.h"
#include "optimize/run.h"
#include "search/case_scoring.h"
#include "optimize/small_package.h"
#include "scratch_dir.h"

namespace {

namespace fs = std::filesystem;
using namespace aoc::optimize;
using namespace aoc::search;

TEST(Budget, ChargesNewCandidatesOnceAndNeverPastTheLimit) {
  Budget b(3);
  EXPECT_TRUE(b.charge("a"));
  EXPECT_TRUE(b.charge("a"));  // the same candidate again: recalled, free
  EXPECT_EQ(b.spent(), 1u);
  EXPECT_TRUE(b.charge("b"));
  EXPECT_TRUE(b.charge("c"));
  EXPECT_TRUE(b.exhausted());
  EXPECT_FALSE(b.charge("d"));  // new, and the budget is spent
  EXPECT_FALSE(b.paid_for("d"));
  EXPECT_TRUE(b.charge("b"));   // known candidates stay free after the limit
  EXPECT_EQ(b.spent(), 3u);
  EXPECT_EQ(b.remaining(), 0u);
}

const fs::path kRelu = fs::path(AOC_SOURCE_DIR) / "ops" / "activation" / "relu";
const fs::path kBadAdd = fs::path(AOC_SOURCE_DIR) / "tests" / "data" / "bad_kernels" / "wrong_result";

// Every method on relu with a budget of 4 on one small case, all sharing one result store:
// no method spends more than 4, every evaluation is a distinct candidate, and a candidate
// recalled from the store (every baseline after the first method's) is still charged to the
// run that meets it, so the methods compete at equal budgets.
TEST(Budget, NoMethodSpendsMoreThanItsBudget) {
  aoc::testing::ScratchDir tmp("optimize-budget");
  const fs::path relu = aoc::testing::small_package_copy(kRelu, tmp.path() / "relu");
  aoc::build::Builder builder(aoc::build::default_builder_options());
  ::setenv("ASCENDOPT_HIDDEN_SEED", "7", 1);  // one hidden draw: verifications are shared through the store
  bool first = true;
  for (const Method& m : methods()) {
    OptimizeOptions o;
    o.method = &m;
    o.budget = 4;
    o.seed = 3;
    o.cases = {"aligned_2d_fp16"};
    o.eval = aoc::eval::default_candidate_eval_options();
    o.out_dir = tmp.path() / m.name;
    o.verify_candidates = 1;
    o.store_file = tmp.path() / "store.sqlite";
    const OptimizeReport r = optimize(relu, builder, o);
    EXPECT_EQ(r.history.front()->from_store, !first) << m.name;
    EXPECT_EQ(r.history.front()->spent, 1u) << m.name << ": a recalled baseline is charged";
    first = false;
    ASSERT_FALSE(r.history.empty()) << m.name;
    EXPECT_LE(r.history.size(), 4u) << m.name;
    EXPECT_EQ(r.history.back()->spent, r.history.size()) << m.name;
    std::set<std::string> keys;
    for (const auto& s : r.history) keys.insert(s->variant.key());
    EXPECT_EQ(keys.size(), r.history.size()) << m.name << ": a candidate was charged twice";
    EXPECT_EQ(r.history.front()->origin, "baseline");
    EXPECT_LE(r.best_us, r.baseline_us) << m.name;
    EXPECT_TRUE(r.verified) << m.name << ": " << r.verification;
    EXPECT_TRUE(fs::exists(o.out_dir / "best" / "candidate.toml"));
    EXPECT_TRUE(fs::exists(o.out_dir / "report.json"));
  }
}

// A candidate that fails costs its evaluation: the budget of 1 is spent by the failing
// baseline, and the run stops with a clear error instead of searching.
TEST(Budget, AFailingCandidateCostsOneEvaluation) {
  aoc::testing::ScratchDir tmp("optimize-budget");
  aoc::build::Builder builder(aoc::build::default_builder_options());
  const fs::path inc = fs::path(AOC_SOURCE_DIR) / "include" / "ascendc";
  auto k = std::make_shared<Kernel>();
  k->cand = aoc::eval::load_candidate(kBadAdd, aoc::base::tree_hash(inc));
  CaseScoring scoring(builder, {aoc::eval::default_candidate_eval_options(), {"aligned_2d_fp16"}}, nullptr);
  Evaluator ev(scoring, 1);
  const ScoredPtr s = ev.evaluate(Variant{k, {}}, "baseline", std::nullopt);
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->eval.valid);
  EXPECT_EQ(s->verdict, "wrong_result");
  EXPECT_EQ(ev.budget().spent(), 1u);
  EXPECT_EQ(ev.evaluate(Variant{k, {}}, "again", std::nullopt), s);  // recalled, free
  aoc::eval::TuningConfig other;
  other.cores = 8;
  EXPECT_EQ(ev.evaluate(Variant{k, other}, "new", std::nullopt), nullptr);  // spent
  EXPECT_EQ(ev.budget().spent(), 1u);
}

// relu's kernel in `dir` (a copy of the package), and two configurations of it for the case
// aligned_2d_fp16 ([16, 2048]) that give the same tiling: tiles capped at 1024 elements with a
// UB budget of 96 KiB or of 128 KiB (the cap binds either way).
struct CappedRelu {
  KernelPtr kernel;
  aoc::eval::TuningConfig small_ub, large_ub;
  explicit CappedRelu(const fs::path& dir) {
    auto k = std::make_shared<Kernel>();
    k->cand = aoc::eval::load_candidate(dir, aoc::base::tree_hash(fs::path(AOC_SOURCE_DIR) / "include" / "ascendc"));
    kernel = k;
    small_ub.knobs["tile_cap"] = 1024;
    small_ub.ub_bytes = 96 * 1024;
    large_ub = small_ub;
    large_ub.ub_bytes = 128 * 1024;
  }
};

CaseScoringOptions relu_case() { return {aoc::eval::default_candidate_eval_options(), {"aligned_2d_fp16"}}; }

// A configuration whose tiling hands the kernel what an evaluated variant's did is that
// variant, free; 8 cores give another tiling.
TEST(Budget, AConfigurationWithAnEvaluatedTilingIsThatVariantAndFree) {
  aoc::testing::ScratchDir tmp("optimize-budget");
  const CappedRelu relu(aoc::testing::small_package_copy(kRelu, tmp.path() / "relu"));
  aoc::build::Builder builder(aoc::build::default_builder_options());
  CaseScoring scoring(builder, relu_case(), nullptr);
  Evaluator ev(scoring, 3);
  const ScoredPtr first = ev.evaluate(Variant{relu.kernel, relu.small_ub}, "first", std::nullopt);
  ASSERT_TRUE(first && first->eval.valid) << (first ? first->eval.reason : "no result");
  EXPECT_EQ(ev.evaluate(Variant{relu.kernel, relu.large_ub}, "same tiling", std::nullopt), first);
  EXPECT_EQ(ev.budget().spent(), 1u);
  EXPECT_EQ(ev.same_tiling(), 1u);
  EXPECT_EQ(ev.history().size(), 1u);
  EXPECT_EQ(ev.evaluate(Variant{relu.kernel, relu.large_ub}, "again", std::nullopt), first);  // known now
  EXPECT_EQ(ev.same_tiling(), 1u);
  aoc::eval::TuningConfig eight = relu.small_ub;
  eight.cores = 8;
  const ScoredPtr other = ev.evaluate(Variant{relu.kernel, eight}, "other tiling", std::nullopt);
  ASSERT_TRUE(other && other->eval.valid);
  EXPECT_NE(other, first);
  EXPECT_EQ(ev.budget().spent(), 2u);
  EXPECT_NE(other->eval.time_us, first->eval.time_us);
  // What the shortcut claims, checked: run for real, the configuration takes the same time.
  Evaluator alone(scoring, 1);
  const ScoredPtr real = alone.evaluate(Variant{relu.kernel, relu.large_ub}, "run", std::nullopt);
  ASSERT_TRUE(real && real->eval.valid);
  EXPECT_EQ(real->eval.time_us, first->eval.time_us);
  EXPECT_EQ(alone.budget().spent(), 1u);
}

// A variant scored on its evaluation cases must also tile every other public case to be an
// answer. layer_norm with a UB of 128 KiB tiles aligned_2d_fp32's 1024-column rows, but one
// 4097-column fp32 row and its scratch need more (131360 bytes): the variant is an invalid
// evaluation naming that case, not a best for verification to reject. The package's own UB
// tiles every case and is valid, and configurations with 128 KiB's tiling on the evaluation
// case are not taken for the failed variant.
TEST(Budget, AVariantWhoseTilingFailsOnAnotherPublicCaseIsInvalid) {
  aoc::testing::ScratchDir tmp("optimize-budget");
  const fs::path dir = aoc::testing::small_package_copy(fs::path(AOC_SOURCE_DIR) / "ops" / "normalization" / "layer_norm",
                                                        tmp.path() / "layer_norm");
  auto k = std::make_shared<Kernel>();
  k->cand = aoc::eval::load_candidate(dir, aoc::base::tree_hash(fs::path(AOC_SOURCE_DIR) / "include" / "ascendc"));
  aoc::build::Builder builder(aoc::build::default_builder_options());
  CaseScoring scoring(builder, {aoc::eval::default_candidate_eval_options(), {"aligned_2d_fp32"}}, nullptr);
  Evaluator ev(scoring, 4);
  aoc::eval::TuningConfig small;
  small.ub_bytes = 128 * 1024;
  const ScoredPtr s = ev.evaluate(Variant{k, small}, "small UB", std::nullopt);
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->eval.valid);
  EXPECT_EQ(s->verdict, "runtime_error");
  EXPECT_NE(s->eval.reason.find("tiling on the other public cases"), std::string::npos) << s->eval.reason;
  EXPECT_NE(s->eval.reason.find("prime_4097_fp32_eps"), std::string::npos) << s->eval.reason;
  EXPECT_GT(s->eval.time_us, 0.0);  // it ran on the evaluation case: only the other cases' tiling failed
  EXPECT_EQ(ev.budget().spent(), 1u);
  EXPECT_EQ(ev.best(), nullptr);

  const ScoredPtr base = ev.evaluate(Variant{k, {}}, "baseline", std::nullopt);
  ASSERT_TRUE(base);
  EXPECT_TRUE(base->eval.valid) << base->eval.reason;
  EXPECT_EQ(ev.best(), base);

  // 160 KiB hands aligned_2d_fp32 what 128 KiB and the package's UB did (one row per core, one
  // tile) and tiles the long rows too: it is the baseline's variant, not the failed one.
  aoc::eval::TuningConfig larger;
  larger.ub_bytes = 160 * 1024;
  EXPECT_EQ(ev.evaluate(Variant{k, larger}, "larger UB", std::nullopt), base);
  EXPECT_EQ(ev.budget().spent(), 2u);
}

// A kernel that asks for a knob itself may behave differently under the same tiling: its
// variants are never taken for one another.
TEST(Budget, AKernelThatReadsAKnobIsAlwaysRun) {
  aoc::testing::ScratchDir tmp("optimize-budget");
  const fs::path dir = aoc::testing::small_package_copy(kRelu, tmp.path() / "relu");
  const fs::path src = dir / "op_kernel" / "relu.cpp";
  std::ifstream in(src);
  std::string text(std::istreambuf_iterator<char>(in), {});
  in.close();
  const std::string call = "    op.Process();\n";
  ASSERT_NE(text.find(call), std::string::npos);
  text.replace(text.find(call), call.size(),
               call + "    static_cast<void>(tuning::Knob(\"probe\", 0, {0, 1}, tuning::Role::Other));\n");
  text = "#include \"tiling/tuning_knobs.h\"\n" + text;
  std::ofstream(src) << text;
  const CappedRelu relu(dir);
  aoc::build::Builder builder(aoc::build::default_builder_options());
  CaseScoring scoring(builder, relu_case(), nullptr);
  Evaluator ev(scoring, 3);
  const ScoredPtr first = ev.evaluate(Variant{relu.kernel, relu.small_ub}, "first", std::nullopt);
  ASSERT_TRUE(first && first->eval.valid) << (first ? first->eval.reason : "no result");
  ASSERT_TRUE(first->report);
  EXPECT_TRUE(first->report->cases.at(0).config_read_by_kernel);
  const ScoredPtr second = ev.evaluate(Variant{relu.kernel, relu.large_ub}, "same tiling", std::nullopt);
  ASSERT_TRUE(second);
  EXPECT_NE(second, first);
  EXPECT_EQ(ev.budget().spent(), 2u);
  EXPECT_EQ(ev.same_tiling(), 0u);
}

}  // namespace
