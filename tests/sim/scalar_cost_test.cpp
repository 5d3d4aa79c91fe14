// Plain C++ in a kernel costs scalar cycles in proportion to the basic blocks it executes;
// the AscendC API code inlined into the kernel does not count as kernel work.
#include <gtest/gtest.h>

#include "data/race_kernels/package_copy.h"
#include "sim/soc.h"

namespace {

const std::string kAddKernel =
    aoc::test::read_text(std::filesystem::path(AOC_SOURCE_DIR) / "ops/elementwise/add/op_kernel/add.cpp");

// The add kernel with `iters` iterations of a scalar loop at the start of Process().
std::string with_scalar_loop(int iters) {
  const std::string anchor = "__aicore__ inline void Process()\n    {\n";
  std::string src = kAddKernel;
  const size_t at = src.find(anchor);
  EXPECT_NE(at, std::string::npos);
  src.insert(at + anchor.size(), "        for (volatile uint32_t k = 0; k < " + std::to_string(iters) +
                                     "; k = k + 1) {}\n");
  return src;
}

struct Measured {
  double scalar_us = 0;
  uint64_t kernel_blocks = 0;
  uint64_t api_records = 0;
};

Measured measure(const std::string& kernel) {
  aoc::test::AddPackageCopy pkg(kernel);
  auto r = pkg.run("Ascend910B1", {"aligned_2d_fp16"});
  EXPECT_EQ(r.verdict, aoc::eval::Verdict::Ok) << r.message;
  if (r.cases.empty() || !r.cases[0].sim_profile) return {};
  const auto& c = r.cases[0];
  return {c.sim_profile->fields.at("aiv_scalar_time"), c.kernel_blocks, c.api_records};
}

TEST(ScalarCost, TenTimesTheLoopCostsTenTimesTheScalarTime) {
  const Measured base = measure(with_scalar_loop(0));
  const Measured small = measure(with_scalar_loop(1000));
  const Measured large = measure(with_scalar_loop(10000));
  const double ratio = (large.scalar_us - base.scalar_us) / (small.scalar_us - base.scalar_us);
  EXPECT_NEAR(ratio, 10.0, 0.2) << base.scalar_us << " " << small.scalar_us << " " << large.scalar_us;
  // Every core runs the loop once: blocks grow by ~iterations x cores.
  const double blocks_ratio =
      double(large.kernel_blocks - base.kernel_blocks) / double(small.kernel_blocks - base.kernel_blocks);
  EXPECT_NEAR(blocks_ratio, 10.0, 0.1);
  EXPECT_EQ(base.api_records, large.api_records);
}

TEST(ScalarCost, ApiCodeInlinedIntoTheKernelIsNotCounted) {
  // The unmodified add kernel: only API calls and a little control flow around them. Each
  // vector instruction expands to thousands of executed blocks inside the API; the
  // kernel itself runs a handful per call.
  const Measured m = measure(kAddKernel);
  ASSERT_GT(m.api_records, 0u);
  EXPECT_GT(m.kernel_blocks, 0u);
  EXPECT_LT(double(m.kernel_blocks), 6.0 * double(m.api_records))
      << m.kernel_blocks << " kernel blocks for " << m.api_records << " API records";
}

TEST(ScalarCost, CountsAreDeterministic) {
  const Measured a = measure(with_scalar_loop(100));
  const Measured b = measure(with_scalar_loop(100));
  EXPECT_EQ(a.kernel_blocks, b.kernel_blocks);
  EXPECT_EQ(a.scalar_us, b.scalar_us);
}

TEST(ScalarCost, SocFilesGiveCyclesPerBlock) {
  for (const char* soc : {"Ascend910B1", "Ascend910B4"}) EXPECT_GT(aoc::sim::load_soc(soc).scalar_cycles_per_block, 0);
}

}  // namespace
