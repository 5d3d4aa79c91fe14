// The operator suite: one test per package under ops/ (ctest runs each as its own test,
// so they run in parallel with `ctest -j`). Each evaluates the baseline in isolated
// children, as `ascendopt eval` does, on its public cases plus a fresh hidden draw, and
// the package's expert/ folder when there is one: it must pass the same cases and have a
// lower geomean simulated time than the baseline both over the public cases that ran and are
// not performance cases and over the performance cases that ran (the speedups are printed).
//
// The hidden draw is smaller than a full one (kHiddenCount cases of at most
// kHiddenMaxElements first-input elements) so the suite fits CI. Its seed, also the input
// seed, is fresh per run and printed on failure; ASCENDOPT_HIDDEN_SEED=<seed> repeats it.
//
// AOC_SUITE picks the packages: unset or `subset` (what `make test` and CI run) the
// packages of kCiSubset below, `all` every package, `all-ci-cases` every package on the cases
// CI runs (below), `none` none; the others are reported as skipped. The whole suite is too
// slow for CI; docs/performance.md has the measured times.
// In the CI subset (and with all-ci-cases), performance cases moving more than kCiPerfCaseBytes
// (inputs plus outputs, outputs shaped by InferShape counted at the first input's size) are left out: the real-model
// shapes reach 100 MB, and each such case costs every run half a minute or more; the ordinary
// public cases (the large bandwidth case included) all run. AOC_SUITE=all runs every case.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "base/content_hash.h"
#include "eval/candidate.h"
#include "eval/candidate_eval.h"
#include "eval/op_times.h"
#include "package/case_gen.h"
#include "package/op_package.h"
#include "package/perf_cases.h"

namespace fs = std::filesystem;
using aoc::eval::CandidateReport;
using aoc::eval::Verdict;

namespace {

constexpr int64_t kHiddenCount = 6;
constexpr int64_t kHiddenMaxElements = 1000000;
constexpr int64_t kCiPerfCaseBytes = 16LL * 1024 * 1024;

fs::path suite_root() { return fs::path(AOC_SOURCE_DIR) / "ops"; }

std::vector<fs::path> suite_packages() { return aoc::package::find_op_packages(suite_root()); }

// "elementwise/abs" -> "elementwise_abs" (GoogleTest names allow letters, digits and _).
std::string test_name(const fs::path& dir) {
  std::string s = fs::relative(dir, suite_root()).generic_string();
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

// The CI subset: the first package, by path, of each category (ops/<category>/ sorted by name)
// and the first package of each category that has an expert/ folder (both candidates run), so
// every category's baseline and every category's expert kind keep running in CI. The other
// experts run with AOC_SUITE=all; docs/performance.md has their figures.
constexpr std::array<std::string_view, 22> kCiSubset = {
    "activation/elu", "activation/hard_sigmoid", "attention/masked_softmax", "broadcast/broadcast_add",
    "compare/equal", "conversion/cast", "conversion/transpose", "elementwise/abs", "foreach/foreach_add_scalar",
    "image/upsample_bilinear", "image/upsample_nearest", "index/embedding", "logic/logical_not",
    "loss/cross_entropy", "loss/mse_loss", "normalization/add_layer_norm", "normalization/log_softmax",
    "optimizer/adam", "pooling/global_avg_pool", "quant/dequantize_per_channel", "reduction/argmax",
    "reduction/reduce_mean",
};

bool in_ci_subset(const fs::path& dir) {
  const std::string rel = fs::relative(dir, suite_root()).generic_string();
  return std::find(kCiSubset.begin(), kCiSubset.end(), rel) != kCiSubset.end();
}

enum class Mode { Subset, All, AllCiCases, None, Invalid };

Mode suite_mode() {
  const char* v = std::getenv("AOC_SUITE");
  const std::string s = v != nullptr ? v : "";
  if (s.empty() || s == "subset") return Mode::Subset;
  if (s == "all") return Mode::All;
  if (s == "all-ci-cases") return Mode::AllCiCases;
  if (s == "none") return Mode::None;
  return Mode::Invalid;
}

std::string hex(uint64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}

aoc::build::Builder& builder() {
  static aoc::build::Builder b(aoc::build::default_builder_options());
  return b;
}

// Large public cases take many seconds each on a busy machine; the limits only stop
// runaway kernels.
aoc::eval::CandidateEvalOptions options(uint64_t seed) {
  aoc::eval::CandidateEvalOptions o = aoc::eval::default_candidate_eval_options();
  o.seed = seed;
  o.limits.wall_seconds = 300;
  o.limits.cpu_seconds = 300;
  return o;
}

// The candidate at `dir` with its package's cases replaced by `public_cases` + hidden ones.
CandidateReport evaluate(const fs::path& dir, const std::vector<aoc::package::CaseSpec>& public_cases,
                         const aoc::package::HiddenDraw& draw) {
  static const std::string headers = aoc::base::tree_hash(fs::path(AOC_SOURCE_DIR) / "include" / "ascendc");
  aoc::eval::Candidate c = aoc::eval::load_candidate(dir, headers);
  c.package.cases = public_cases;
  c.package = aoc::package::with_case_set(c.package, aoc::package::CaseSet::All, draw);
  return aoc::eval::evaluate_candidate(c, builder(), options(draw.seed));
}

void expect_all_ok(const CandidateReport& r, const std::string& who) {
  // Verdicts compared by name so a failure prints "ok" vs "wrong_result", not enum bytes.
  EXPECT_STREQ(aoc::eval::to_string(r.verdict), "ok") << who << ": " << r.message;
  EXPECT_FALSE(r.cases.empty()) << who << ": no case ran";
  for (const auto& c : r.cases)
    if (c.verdict != Verdict::Ok)
      ADD_FAILURE() << who << " case " << c.name << " (" << c.dtype << " " << c.shapes
                    << "): " << aoc::eval::to_string(c.verdict) << ": " << c.message;
}

class Suite : public ::testing::TestWithParam<fs::path> {};

TEST_P(Suite, BaselineAndExpertPass) {
  const fs::path dir = GetParam();
  const Mode mode = suite_mode();
  if (mode == Mode::Invalid) FAIL() << "AOC_SUITE='" << std::getenv("AOC_SUITE") << "': use subset (the default), all, all-ci-cases or none";
  if (mode == Mode::None) GTEST_SKIP() << "AOC_SUITE=none";
  if (mode == Mode::Subset && !in_ci_subset(dir))
    GTEST_SKIP() << "not in the CI subset (kCiSubset in tests/ops/suite_test.cpp); AOC_SUITE=all or all-ci-cases runs it";
  aoc::package::OpPackage p;
  try {
    p = aoc::package::load_op_package(dir);
  } catch (const aoc::package::PackageError& e) {
    FAIL() << e.what();
  }
  if (mode == Mode::Subset || mode == Mode::AllCiCases) {
    std::vector<aoc::package::CaseSpec> kept;
    for (const auto& c : p.cases)
      if (!c.perf || aoc::package::case_data_bytes(p, c) <= kCiPerfCaseBytes) kept.push_back(c);
    p.cases = std::move(kept);
  }
  aoc::package::HiddenDraw draw;
  draw.seed = aoc::package::hidden_seed_from_environment();
  draw.count = kHiddenCount;
  draw.max_elements = kHiddenMaxElements;
  SCOPED_TRACE("hidden draw and input seed " + hex(draw.seed) + "; repeat with ASCENDOPT_HIDDEN_SEED=" +
               hex(draw.seed) + " ctest -R " + test_name(dir));

  const CandidateReport base = evaluate(dir, p.cases, draw);
  expect_all_ok(base, "baseline");
  EXPECT_EQ(base.cases.size(), p.cases.size() + static_cast<size_t>(kHiddenCount));

  const auto expert = aoc::eval::expert_folder(dir);
  if (!expert) return;
  const CandidateReport ex = evaluate(*expert, p.cases, draw);
  expect_all_ok(ex, "expert");
  // The expert must be faster over the ordinary public cases and, separately, over the
  // real-model performance cases that ran (the package's speed; in the CI subset those of at
  // most kCiPerfCaseBytes), so a gain on one kind cannot hide a loss on the other.
  std::set<std::string> public_names, perf_names;
  for (const auto& c : p.cases) (c.perf ? perf_names : public_names).insert(c.name);
  const auto bt = aoc::eval::summarise_times(base, public_names);
  const auto et = aoc::eval::summarise_times(ex, public_names);
  ASSERT_TRUE(bt.us && et.us) << "no geomean time over the public cases (a case failed or was not timed)";
  EXPECT_LT(*et.us, *bt.us) << "the expert is not faster than the baseline: geomean simulated time over the "
                            << public_names.size() << " public cases that are not performance cases "
                            << std::fixed << std::setprecision(3) << *et.us << " us vs " << *bt.us << " us";
  if (perf_names.empty()) return;
  const auto bp = aoc::eval::summarise_times(base, perf_names);
  const auto ep = aoc::eval::summarise_times(ex, perf_names);
  ASSERT_TRUE(bp.us && ep.us) << "no geomean time over the performance cases (a case failed or was not timed)";
  std::printf("%s: expert speedup %.3fx over %zu public cases, %.3fx over %zu performance cases run\n", p.name.c_str(),
              *bt.us / *et.us, public_names.size(), *bp.us / *ep.us, perf_names.size());
  EXPECT_LT(*ep.us, *bp.us) << "the expert is not faster than the baseline on the performance cases: geomean "
                            << "simulated time over the " << perf_names.size() << " performance cases that ran "
                            << std::fixed << std::setprecision(3) << *ep.us << " us vs " << *bp.us << " us";
}

// A renamed or removed package must not silently leave the subset.
TEST(SuiteSubset, NamesExistingPackages) {
  for (std::string_view rel : kCiSubset)
    EXPECT_TRUE(fs::is_regular_file(suite_root() / rel / "op.toml")) << rel << " is in kCiSubset but is no package";
}

// The first package, by path, of each category among the packages `keep` accepts.
std::vector<fs::path> first_of_each_category(bool (*keep)(const fs::path&)) {
  std::set<std::string> seen;
  std::vector<fs::path> first;
  for (const auto& dir : suite_packages())
    if (keep(dir) && seen.insert(fs::relative(dir, suite_root()).begin()->string()).second) first.push_back(dir);
  return first;
}

// An expert that sorts before its category's first one takes its place in the subset.
TEST(SuiteSubset, HoldsTheFirstPackageWithAnExpertOfEachCategory) {
  for (const auto& dir : first_of_each_category([](const fs::path& d) { return aoc::eval::expert_folder(d).has_value(); }))
    EXPECT_TRUE(in_ci_subset(dir)) << fs::relative(dir, suite_root()).generic_string()
                                   << " is the first package with an expert/ folder of its category but is not in kCiSubset";
}

// A category added later, or a package sorting before a category's first one, changes which
// package is first: the subset follows, so each category's baseline keeps running in CI.
TEST(SuiteSubset, HoldsTheFirstPackageOfEachCategory) {
  for (const auto& dir : first_of_each_category([](const fs::path&) { return true; }))
    EXPECT_TRUE(in_ci_subset(dir)) << fs::relative(dir, suite_root()).generic_string()
                                   << " is the first package of its category but is not in kCiSubset";
}

INSTANTIATE_TEST_SUITE_P(Ops, Suite, ::testing::ValuesIn(suite_packages()),
                         [](const ::testing::TestParamInfo<fs::path>& info) { return test_name(info.param); });

}  // namespace
