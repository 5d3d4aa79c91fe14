// The default tuning cases: a package's performance cases (the speed it is judged by); for a
// package without any, the largest public case of each dtype (under a size cap) plus the case
// with the longest rows when the largest ones have shorter rows.
#include <gtest/gtest.h>

#include <algorithm>

#include "package/op_package.h"
#include "tune/tuner.h"

namespace {

aoc::package::OpPackage package(const char* rel) { return aoc::package::load_op_package(std::filesystem::path(AOC_SOURCE_DIR) / rel); }

// The package as it would be without performance cases (an imported operator, say).
aoc::package::OpPackage without_perf_cases(const char* rel) {
  aoc::package::OpPackage p = package(rel);
  std::erase_if(p.cases, [](const auto& c) { return c.perf; });
  return p;
}

bool has(const std::vector<std::string>& v, const char* name) { return std::find(v.begin(), v.end(), name) != v.end(); }

TEST(TuningCases, ThePerformanceCasesUnderTheCapElseTheSmallestOne) {
  const auto p = package("ops/normalization/softmax");
  // Uncapped: every performance case, in file order.
  EXPECT_EQ(aoc::tune::default_tuning_cases(p),
            (std::vector<std::string>{"llama3_8b_decode_ctx4096", "bert_base_b1_s512", "vit_b16_b8", "bert_base_b4_s512"}));
  // [32, 1, 4096], [12, 512, 512] and [96, 197, 197] have at most 4 M input elements; [48, 512, 512] has 12.6 M.
  EXPECT_EQ(aoc::tune::default_tuning_cases(p, 4 << 20),
            (std::vector<std::string>{"llama3_8b_decode_ctx4096", "bert_base_b1_s512", "vit_b16_b8"}));
  // No performance case has at most 65536 elements: the smallest one, not an ordinary case.
  EXPECT_EQ(aoc::tune::default_tuning_cases(p, 65536), (std::vector<std::string>{"llama3_8b_decode_ctx4096"}));
}

TEST(TuningCases, TheProbeAddsTheOrdinaryCaseWithTheLongestRows) {
  const auto p = package("ops/normalization/softmax");
  const auto timing = aoc::tune::default_tuning_cases(p);
  const auto probe = aoc::tune::tuning_probe_cases(p, timing);
  // The smallest case of each dtype, then [9, 4097] fp32 (16388-byte rows; [37, 8191] fp16 has 16382).
  EXPECT_EQ(probe.back(), "prime_4097_fp32");
  for (const auto& name : probe) EXPECT_FALSE(has(timing, name.c_str())) << name;
  // A longest-rows case that is already timed is not probed again.
  EXPECT_FALSE(has(aoc::tune::tuning_probe_cases(p, {"prime_4097_fp32"}), "prime_4097_fp32"));
}

TEST(TuningCases, WithoutPerformanceCasesLargestPerDtypeThenTheLongestRows) {
  // softmax: [64, 1024] fp32 and [33, 1021] fp16 are the largest under 65536 elements; the
  // [9, 4097] fp32 case has 16 KB rows, which a small UB budget cannot hold.
  const auto p = without_perf_cases("ops/normalization/softmax");
  const auto cases = aoc::tune::default_tuning_cases(p, 65536);
  EXPECT_EQ(cases.size(), 3u);
  EXPECT_TRUE(has(cases, "aligned_2d_fp32"));
  EXPECT_TRUE(has(cases, "prime_1021_fp16"));
  EXPECT_EQ(cases.back(), "prime_4097_fp32");
  // Without a cap [37, 8191] is the largest fp16 case, with 16382-byte rows; the fp32 rows of
  // 16388 bytes are still longer.
  const auto uncapped = aoc::tune::default_tuning_cases(p);
  EXPECT_EQ(uncapped, (std::vector<std::string>{"prime_8191_fp16", "aligned_2d_fp32", "prime_4097_fp32"}));
}

TEST(TuningCases, NothingIsAddedWhenALargestCaseHasTheLongestRows) {
  // relu: [7, 4097] fp32 is both the largest fp32 case under the cap and the longest rows.
  const auto cases = aoc::tune::default_tuning_cases(without_perf_cases("ops/activation/relu"), 65536);
  EXPECT_TRUE(has(cases, "prime_4097_fp32"));
  EXPECT_EQ(std::count(cases.begin(), cases.end(), "prime_4097_fp32"), 1);
  EXPECT_EQ(cases.size(), 3u);  // one per dtype: fp16, fp32, bf16
}

}  // namespace
