// End to end through the evaluator's one, isolated path (eval/candidate_eval.h): each
// operator of the suite passes its public cases; modified copies of the add kernel show
// that wrong results, unwritten tails, kernel errors, crashes and compile errors are each
// reported as such.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "eval/eval_test_support.h"
#include "package/op_package.h"

namespace fs = std::filesystem;
using aoc::eval::Verdict;
using aoc::eval::testing::shared_builder;

namespace {

aoc::eval::CandidateReport run_package(const fs::path& dir, uint64_t seed = 12345) {
  aoc::eval::CandidateEvalOptions opt = aoc::eval::testing::test_options({});
  opt.seed = seed;
  opt.soc = "";  // correctness only; timing has its own tests
  opt.limits.wall_seconds = 120;  // a slow case on a loaded machine is not what these tests look at
  return aoc::eval::testing::evaluate_dir(dir, opt);
}

std::string describe(const aoc::eval::CandidateReport& r) {
  std::ostringstream os;
  os << to_string(r.verdict) << ": " << r.message << "\n";
  for (const auto& c : r.cases)
    if (c.verdict != Verdict::Ok) os << c.name << ": " << to_string(c.verdict) << " " << c.message << "\n";
  return os.str();
}

// A copy of ops/elementwise/add with one text substitution in its kernel.
class MutatedAdd {
 public:
  MutatedAdd(const std::string& from, const std::string& to) {
    dir_ = fs::temp_directory_path() / ("aoc_mut_add_" + std::to_string(::getpid()) + "_" + std::to_string(n_++));
    fs::copy(fs::path(AOC_SOURCE_DIR) / "ops/elementwise/add", dir_, fs::copy_options::recursive);
    const fs::path k = dir_ / "op_kernel/add.cpp";
    std::ifstream in(k);
    std::string src((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const size_t at = src.find(from);
    EXPECT_NE(at, std::string::npos) << "kernel text not found: " << from;
    if (at != std::string::npos) src.replace(at, from.size(), to);
    std::ofstream(k) << src;
  }
  ~MutatedAdd() { fs::remove_all(dir_); }
  const fs::path& dir() const { return dir_; }

 private:
  static inline int n_ = 0;
  fs::path dir_;
};

const aoc::eval::CaseResult* find_case(const aoc::eval::CandidateReport& r, const std::string& name) {
  for (const auto& c : r.cases)
    if (c.name == name) return &c;
  return nullptr;
}

}  // namespace

class SuiteOperator : public ::testing::TestWithParam<const char*> {};

TEST_P(SuiteOperator, PassesAllPublicCases) {
  auto r = run_package(fs::path(AOC_SOURCE_DIR) / "ops" / GetParam());
  EXPECT_EQ(r.verdict, Verdict::Ok) << describe(r);
  auto p = aoc::package::load_op_package(fs::path(AOC_SOURCE_DIR) / "ops" / GetParam());
  EXPECT_EQ(r.cases.size(), p.cases.size());
  for (const auto& c : r.cases) {
    EXPECT_GT(c.block_dim, 0u) << c.name;
    for (const auto& o : c.outputs) EXPECT_EQ(o.cmp.poisoned, 0) << c.name << " left elements unwritten";
  }
}

INSTANTIATE_TEST_SUITE_P(Ops, SuiteOperator,
                         ::testing::Values("elementwise/add", "normalization/softmax", "normalization/layer_norm"));

TEST(MutatedKernel, WrongArithmeticFailsEveryCase) {
  MutatedAdd m("AscendC::Add(zLocal, xLocal, yLocal", "AscendC::Sub(zLocal, xLocal, yLocal");
  auto r = run_package(m.dir());
  ASSERT_FALSE(r.cases.empty()) << describe(r);
  EXPECT_EQ(r.verdict, Verdict::WrongResult) << describe(r);
  const auto p = aoc::package::load_op_package(m.dir());
  for (const auto& c : r.cases) {
    // x - y equals x + y on all-zero inputs: only those cases may pass.
    const auto spec = std::find_if(p.cases.begin(), p.cases.end(), [&](const auto& s) { return s.name == c.name; });
    ASSERT_NE(spec, p.cases.end());
    if (spec->values.dist == "zeros") {
      EXPECT_EQ(c.verdict, Verdict::Ok) << c.name;
      continue;
    }
    EXPECT_EQ(c.verdict, Verdict::WrongResult) << c.name;
    EXPECT_NE(c.message.find("output z"), std::string::npos) << c.message;
  }
}

TEST(MutatedKernel, DataCopyOfAnUnalignedTailLeavesItUnwritten) {
  // DataCopy moves whole 32 B blocks only: the unaligned tail of the last tile is lost.
  MutatedAdd m("AscendC::DataCopyPad(zGm[offset], zLocal, copyParams);", "AscendC::DataCopy(zGm[offset], zLocal, len);");
  auto r = run_package(m.dir());
  ASSERT_FALSE(r.cases.empty()) << describe(r);
  const auto* aligned = find_case(r, "aligned_2d_fp16");
  const auto* prime = find_case(r, "prime_1021_fp16");
  ASSERT_TRUE(aligned && prime);
  EXPECT_EQ(aligned->verdict, Verdict::Ok) << aligned->message;
  EXPECT_EQ(prime->verdict, Verdict::WrongResult);
  ASSERT_FALSE(prime->outputs.empty());
  EXPECT_GT(prime->outputs[0].cmp.poisoned, 0);
}

// InitBuffer does not check the total on the device: y's oversized buffers push z's past the
// end of UB, and the first access to them is the error, naming the InitBuffer that overflowed.
TEST(MutatedKernel, UbOverflowIsAKernelErrorWithFileAndLine) {
  MutatedAdd m("pipe.InitBuffer(inQueueY, BUFFER_NUM, this->tileLength * sizeof(DTYPE_Y));",
               "pipe.InitBuffer(inQueueY, BUFFER_NUM, this->tileLength * sizeof(DTYPE_Y) * 8);");
  auto r = run_package(m.dir());
  ASSERT_FALSE(r.cases.empty()) << describe(r);
  const auto* c = find_case(r, "aligned_2d_fp16");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->verdict, Verdict::RuntimeError);
  EXPECT_EQ(fs::path(c->error_file).filename(), "add.cpp") << c->message;
  EXPECT_GT(c->error_line, 0u);
  EXPECT_NE(c->message.find("UB overflow"), std::string::npos) << c->message;
  EXPECT_NE(c->message.find("initialised at"), std::string::npos) << c->message;
}

TEST(MutatedKernel, CompileErrorIsADiagnosticWithFileAndLine) {
  MutatedAdd m("uint32_t len = TileElems(progress);", "uint32_t len = TileElemz(progress);");
  auto r = run_package(m.dir());
  EXPECT_EQ(r.verdict, Verdict::CompileError) << describe(r);
  EXPECT_TRUE(r.cases.empty());
  const auto& errs = r.diagnostics;
  ASSERT_FALSE(errs.empty()) << r.message;
  EXPECT_EQ(fs::path(errs[0].file).filename(), "add.cpp");
  EXPECT_GT(errs[0].line, 0);
  EXPECT_NE(errs[0].message.find("TileElemz"), std::string::npos);
}

TEST(Evaluation, SameSeedSameNumbersAndRebuildsAreCached) {
  const fs::path add = fs::path(AOC_SOURCE_DIR) / "ops/elementwise/add";
  auto a = run_package(add, 7);
  const uint64_t runs = shared_builder().compiler_runs();
  auto b = run_package(add, 7);
  EXPECT_EQ(shared_builder().compiler_runs(), runs);  // everything came from the cache
  ASSERT_EQ(a.cases.size(), b.cases.size());
  for (size_t i = 0; i < a.cases.size(); ++i)
    EXPECT_EQ(a.cases[i].outputs[0].cmp.worst_index, b.cases[i].outputs[0].cmp.worst_index);
}

// The kernel runs in the sandboxed child, never in this process: a kernel that crashes gets
// verdict crash and the evaluation goes on (tests/eval/bad_kernels_test.cpp has the rest).
TEST(IsolatedKernel, ACrashIsAVerdict) {
  MutatedAdd m("            CopyIn(i);\n", "            CopyIn(i);\n            volatile int* nowhere = nullptr;\n            *nowhere = 1;\n");
  aoc::eval::CandidateEvalOptions opt = aoc::eval::testing::test_options({"aligned_2d_fp16", "prime_1021_fp16"});
  opt.soc = "";
  const auto r = aoc::eval::testing::evaluate_dir(m.dir(), opt);
  ASSERT_EQ(r.cases.size(), 2u) << describe(r);
  for (const auto& c : r.cases) {
    EXPECT_EQ(c.verdict, Verdict::Crash) << c.name << ": " << c.message;
    EXPECT_NE(c.message.find("SIGSEGV"), std::string::npos) << c.message;
  }
}
