// An operator named like the C library's abs: its entry `extern "C" void abs(GM_ADDR ...)` builds
// (the device declares no C abs; kernel units read the C library's under another name), and the
// kernel can still call abs on an int and std::abs on every type.
#include <gtest/gtest.h>

#include <string>

#include "eval/eval_test_support.h"
#include "eval/package_copy.h"

namespace {

TEST(AbsNamedKernel, BuildsRunsAndKeepsIntegerAndStdAbs) {
  std::string src = aoc::test::read_text(std::filesystem::path(AOC_SOURCE_DIR) / "ops/elementwise/add/op_kernel/add.cpp");
  const std::string entry = "extern \"C\" __global__ __aicore__ void add_custom(";
  ASSERT_NE(src.find(entry), std::string::npos);
  src.replace(src.find(entry), entry.size(), "extern \"C\" __global__ __aicore__ void abs(");
  // abs(int) and std::abs still work in kernel code: the tile loop runs abs(-1) * |-1.0| = 1 times.
  const std::string process = "op.Process();";
  src.replace(src.find(process), process.size(),
              "for (int k = 0; k < abs(-1) * static_cast<int>(std::abs(-1.0)) * static_cast<int>(std::abs(-1L)); ++k) "
              "op.Process();");
  const aoc::test::AddPackageCopy pkg(src);
  ASSERT_TRUE(aoc::eval::testing::replace_once(pkg.dir() / "op.toml", "kernel = \"add_custom\"", "kernel = \"abs\""));
  const aoc::eval::CandidateReport r = pkg.run("", {"tiny_fp16", "prime_1021_fp16"});
  ASSERT_EQ(r.cases.size(), 2u) << aoc::eval::to_string(r.verdict) << ": " << r.message;
  for (const auto& c : r.cases) EXPECT_EQ(c.verdict, aoc::eval::Verdict::Ok) << c.name << ": " << c.message;
}

}  // namespace
