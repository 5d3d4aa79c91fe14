// What a kernel prints reaches the case's report: add with an AscendC::printf in its entry,
// evaluated with both trials, reports one line per core of the first trial, each prefixed with
// its core, and passes as before.
#include <gtest/gtest.h>

#include <string>

#include "eval/package_copy.h"

namespace {

TEST(KernelPrint, ThePrintedTextOfTheFirstTrialIsInTheCaseReport) {
  std::string src = aoc::test::read_text(std::filesystem::path(AOC_SOURCE_DIR) / "ops/elementwise/add/op_kernel/add.cpp");
  const std::string entry = "GET_TILING_DATA(tilingData, tiling);";
  ASSERT_NE(src.find(entry), std::string::npos);
  src.replace(src.find(entry), entry.size(),
              entry + "\n    AscendC::printf(\"core %d of %d, %u elements\\n\", int(AscendC::GetBlockIdx()), "
                      "int(AscendC::GetBlockNum()), unsigned(tilingData.totalLength));");
  const aoc::test::AddPackageCopy pkg(src);
  const aoc::eval::CandidateReport r = pkg.run("Ascend910B1", {"tiny_fp16"});
  ASSERT_EQ(r.cases.size(), 1u) << r.message;
  const aoc::eval::CaseResult& c = r.cases[0];
  EXPECT_EQ(c.verdict, aoc::eval::Verdict::Ok) << c.message;
  ASSERT_GT(c.block_dim, 0u);
  std::string expected;
  for (uint32_t b = 0; b < c.block_dim; ++b)
    expected += "[AIV-" + std::to_string(b) + "] core " + std::to_string(b) + " of " + std::to_string(c.block_dim) + ", ";
  // The element count is the case's; compare the lines without it.
  std::string got;
  for (size_t at = 0; at < c.printed.size();) {
    const size_t end = c.printed.find('\n', at);
    ASSERT_NE(end, std::string::npos) << c.printed;
    const std::string line = c.printed.substr(at, end - at);
    got += line.substr(0, line.rfind(", ") + 2);
    at = end + 1;
  }
  EXPECT_EQ(got, expected) << c.printed;
}

}  // namespace
