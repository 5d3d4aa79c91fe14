// `ascendopt ops list --check` on small fixture suites: the performance-case rules
// (package/perf_cases.h) pass a package with four real-model cases spanning 1 MB..42 MB and
// fail, naming the package and what to add, one with too few, too small and too similar ones.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "cli_support.h"

namespace fs = std::filesystem;
using aoc::testing::run_ascendopt;

namespace {

// A unary fp16 operator (y shaped like x) with eight ordinary cases that follow the public
// case rules, so only the performance cases decide the outcome.
const char* kHead = R"(
name = "unary"
[[inputs]]
name = "x"
dtypes = ["float16"]
[[outputs]]
name = "y"
dtypes = ["float16"]
shape_like = "x"
[hidden]
rank = [2, 2]
values = ["medium"]
[[cases]]
name = "small"
shape = [4, 1021]
[[cases]]
name = "prime_8"
shape = [8, 1021]
[[cases]]
name = "prime_16"
shape = [16, 1021]
[[cases]]
name = "prime_32"
shape = [32, 1021]
)";

std::string perf_case(const std::string& name, int rows, int cols, const std::string& source) {
  return "[[cases]]\nname = \"" + name + "\"\nshape = [" + std::to_string(rows) + ", " + std::to_string(cols) +
         "]\nperf = true\nsource = \"" + source + "\"\n";
}

class Suite {
 public:
  explicit Suite(const std::string& toml) {
    root_ = fs::temp_directory_path() / ("aoc_perf_check_" + std::to_string(::getpid()) + "_" + std::to_string(n_++));
    fs::create_directories(root_ / "cat" / "unary");
    std::ofstream(root_ / "cat" / "unary" / "op.toml") << toml;
  }
  ~Suite() { fs::remove_all(root_); }
  std::string root() const { return root_.string(); }

 private:
  static inline int n_ = 0;
  fs::path root_;
};

}  // namespace

TEST(PerfCheck, FourRealModelCasesSpanningTheRangePass) {
  Suite s(std::string(kHead) + perf_case("decode_64", 64, 4096, "LLaMA-3-8B decode batch 64 x hidden 4096") +
          perf_case("decode_128", 128, 4096, "LLaMA-3-8B decode batch 128 x hidden 4096") +
          perf_case("prefill_512", 512, 4096, "LLaMA-3-8B prefill 512 tokens x hidden 4096") +
          perf_case("prefill_2560", 2560, 4096, "LLaMA-3-8B prefill 2560 tokens x hidden 4096"));
  const auto r = run_ascendopt("ops list " + s.root() + " --check");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out.find("rule:"), std::string::npos) << r.out;
}

TEST(PerfCheck, TooFewTooSmallAndTooSimilarCasesFail) {
  // Three cases: one of 128 KB (below 256 KB), and 1 MB..2 MB between the others.
  Suite s(std::string(kHead) + perf_case("tiny", 16, 2048, "GPT-2 decode") +
          perf_case("decode_64", 64, 4096, "LLaMA-3-8B decode batch 64 x hidden 4096") +
          perf_case("decode_128", 128, 4096, "LLaMA-3-8B decode batch 128 x hidden 4096") +
          "[[cases]]\nname = \"big\"\nshape = [2560, 4096]\n");
  const auto r = run_ascendopt("ops list " + s.root() + " --check");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("package 'unary': 3 performance cases; add 1 more"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("performance case 'tiny' moves 128 KB"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("performance case 'decode_64' moves"), std::string::npos) << r.out;

  Suite narrow(std::string(kHead) + perf_case("a", 64, 4096, "LLaMA-3-8B decode batch 64") +
               perf_case("b", 96, 4096, "LLaMA-3-8B decode batch 96") +
               perf_case("c", 128, 4096, "LLaMA-3-8B decode batch 128") +
               perf_case("d", 2560, 4095, "LLaMA-3-8B prefill 2560 tokens"));
  const auto n = run_ascendopt("ops list " + narrow.root() + " --check");
  EXPECT_EQ(n.status, 0) << n.out;  // 1 MB .. 40 MB: wide enough
  Suite flat(std::string(kHead) + perf_case("a", 64, 4096, "LLaMA-3-8B decode batch 64") +
             perf_case("b", 96, 4096, "LLaMA-3-8B decode batch 96") +
             perf_case("c", 128, 4096, "LLaMA-3-8B decode batch 128") +
             perf_case("d", 192, 4096, "LLaMA-3-8B decode batch 192") +
             "[[cases]]\nname = \"big\"\nshape = [2560, 4096]\n");
  const auto f = run_ascendopt("ops list " + flat.root() + " --check");
  EXPECT_EQ(f.status, 1) << f.out;
  EXPECT_NE(f.out.find("performance cases span only 1 MB .. 3 MB; add a case at least 4x larger"), std::string::npos)
      << f.out;
}

TEST(PerfCheck, PerformanceCaseWithoutSourceIsALoadError) {
  Suite s(std::string(kHead) + "[[cases]]\nname = \"nosource\"\nshape = [64, 4096]\nperf = true\n");
  const auto r = run_ascendopt("ops list " + s.root() + " --check");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("case 'nosource'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("add source ="), std::string::npos) << r.out;
}
