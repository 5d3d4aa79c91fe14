// A package written the way public operators are (tests/data/compat/exp): kernel entry named
// exp, tiling struct named unqualified in the kernel, IMPL_OP_OPTILING with TilingParse, a
// TBuf larger than UB on an unused path, and per-core shares rounded up to 32-byte blocks that
// run into the runtime's padding of the last allocation. It builds, runs and passes; the
// padding accesses are reported as warnings and only the real elements are compared.
#include <gtest/gtest.h>

#include <filesystem>

#include "eval/evaluator.h"
#include "ops/op_package.h"

namespace fs = std::filesystem;

TEST(CompatPackage, PublicStyleKernelBuildsRunsAndPassesWithPaddingWarnings) {
  auto p = aoc::op::load_op_package(fs::path(AOC_SOURCE_DIR) / "tests/data/compat/exp");
  aoc::eval::Builder builder(aoc::eval::default_builder_options());
  aoc::eval::EvalOptions opt;
  opt.seed = 7;
  opt.soc = "";
  const auto r = aoc::eval::evaluate_package(p, builder, opt);
  ASSERT_TRUE(r.build_failures.empty()) << r.build_failures.front().result.first_error();
  ASSERT_TRUE(r.setup_error.empty()) << r.setup_error;
  ASSERT_EQ(r.cases.size(), 3u);
  for (const auto& c : r.cases) {
    EXPECT_EQ(c.verdict, aoc::op::Verdict::Pass) << c.name << ": " << c.message;
    bool padding = false;
    for (const auto& w : c.warnings) padding = padding || w.find("padding of GM buffer") != std::string::npos;
    EXPECT_EQ(padding, c.name != "aligned_fp32") << c.name;
  }
}
