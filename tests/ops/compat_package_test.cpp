// A package written the way public operators are (tests/data/compat/exp): kernel entry named
// exp, tiling struct named unqualified in the kernel, IMPL_OP_OPTILING with TilingParse, a
// TBuf larger than UB on an unused path, and per-core shares rounded up to 32-byte blocks that
// run into the runtime's padding of the last allocation. It builds, runs and passes; the
// padding accesses are reported as warnings and only the real elements are compared.
#include <gtest/gtest.h>

#include <filesystem>

#include "eval/eval_test_support.h"

namespace fs = std::filesystem;

TEST(CompatPackage, PublicStyleKernelBuildsRunsAndPassesWithPaddingWarnings) {
  aoc::eval::CandidateEvalOptions opt = aoc::eval::testing::test_options({});
  opt.seed = 7;
  opt.soc = "";
  const auto r = aoc::eval::testing::evaluate_dir(fs::path(AOC_SOURCE_DIR) / "tests/data/compat/exp", opt);
  ASSERT_EQ(r.cases.size(), 3u) << to_string(r.verdict) << ": " << r.message;
  for (const auto& c : r.cases) {
    EXPECT_EQ(c.verdict, aoc::eval::Verdict::Ok) << c.name << ": " << c.message;
    bool padding = false;
    for (const auto& w : c.warnings) padding = padding || w.find("padding of GM buffer") != std::string::npos;
    EXPECT_EQ(padding, c.name != "aligned_fp32") << c.name;
  }
}
