// The default tuning cases: the largest public case of each dtype (under a size cap), plus
// the case with the longest rows when the largest ones have shorter rows.
#include <gtest/gtest.h>

#include <algorithm>

#include "ops/op_package.h"
#include "tune/tuner.h"

namespace {

aoc::op::OpPackage package(const char* rel) { return aoc::op::load_op_package(std::filesystem::path(AOC_SOURCE_DIR) / rel); }

bool has(const std::vector<std::string>& v, const char* name) { return std::find(v.begin(), v.end(), name) != v.end(); }

TEST(TuningCases, LargestPerDtypeThenTheLongestRows) {
  // softmax: [64, 1024] fp32 and [33, 1021] fp16 are the largest under 65536 elements; the
  // [9, 4097] fp32 case has 16 KB rows, which a small UB budget cannot hold.
  const auto cases = aoc::tune::default_tuning_cases(package("ops/normalization/softmax"), 65536);
  EXPECT_EQ(cases.size(), 3u);
  EXPECT_TRUE(has(cases, "aligned_2d_fp32"));
  EXPECT_TRUE(has(cases, "prime_1021_fp16"));
  EXPECT_EQ(cases.back(), "prime_4097_fp32");
  // Without a cap the BERT-base attention scores [48, 512, 512] are the largest fp16 case, with
  // 1 KB rows; the fp32 16 KB rows are still longer.
  const auto uncapped = aoc::tune::default_tuning_cases(package("ops/normalization/softmax"));
  EXPECT_EQ(uncapped.size(), 3u);
  EXPECT_TRUE(has(uncapped, "bert_base_b4_s512"));
  EXPECT_TRUE(has(uncapped, "prime_4097_fp32"));
}

TEST(TuningCases, NothingIsAddedWhenALargestCaseHasTheLongestRows) {
  // relu: [7, 4097] fp32 is both the largest fp32 case under the cap and the longest rows.
  const auto cases = aoc::tune::default_tuning_cases(package("ops/activation/relu"), 65536);
  EXPECT_TRUE(has(cases, "prime_4097_fp32"));
  EXPECT_EQ(std::count(cases.begin(), cases.end(), "prime_4097_fp32"), 1);
  EXPECT_EQ(cases.size(), 3u);  // one per dtype: fp16, fp32, bf16
}

}  // namespace
