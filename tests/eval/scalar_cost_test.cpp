// Plain C++ in a kernel costs scalar cycles in proportion to the basic blocks it executes;
// the AscendC API code inlined into the kernel does not count as kernel work.
#include <gtest/gtest.h>

#include "eval/package_copy.h"
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
  uint64_t api_blocks = 0;
};

Measured measure(const std::string& kernel) {
  aoc::test::AddPackageCopy pkg(kernel);
  auto r = pkg.run("Ascend910B1", {"aligned_2d_fp16"});
  EXPECT_EQ(r.verdict, aoc::eval::Verdict::Ok) << r.message;
  if (r.cases.empty() || !r.cases[0].sim_profile) return {};
  const auto& c = r.cases[0];
  return {c.sim_profile->fields.at("aiv_scalar_time"), c.kernel_blocks, c.api_records, c.api_blocks};
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

// The add kernel with more vector instructions after its Add, each leaving z as it is or writing
// only the input buffers, which are free by then: every kind of lane loop (element-wise, scalar
// operand, cast, compare, reduction, fill) over the tile.
std::string with_more_vector_work() {
  const std::string anchor = "        AscendC::Add(zLocal, xLocal, yLocal, TileElems(progress));\n";
  std::string src = kAddKernel;
  const size_t at = src.find(anchor);
  EXPECT_NE(at, std::string::npos);
  src.insert(at + anchor.size(), R"(        const uint32_t n = TileElems(progress);
        AscendC::Muls(zLocal, zLocal, (DTYPE_Z)1, n);
        AscendC::Max(zLocal, zLocal, zLocal, n);
        AscendC::Exp(xLocal, zLocal, n);
        AscendC::Cast(xLocal.template ReinterpretCast<float>(), zLocal, AscendC::RoundMode::CAST_NONE, n / 2);
        AscendC::Compare(yLocal.template ReinterpretCast<uint8_t>(), zLocal, zLocal, AscendC::CMPMODE::EQ, n);
        AscendC::ReduceSum(yLocal, zLocal, xLocal, n);
        AscendC::Duplicate(xLocal, (DTYPE_X)0, n);
)");
  return src;
}

// Per-element API code carries no coverage callbacks (aoc/instrumentation.h): the API blocks that
// still call one, only to be discarded, are the checks and bookkeeping of each call, a bounded
// number per call, not several per element. Each instruction here runs over a tile of hundreds of
// elements, so one whose lane loop regains its callbacks adds a thousand blocks or more per call;
// before the lane loops were uncounted the figures were 632 blocks per record for the add kernel
// and 4617 per added instruction.
TEST(ScalarCost, LaneLoopsRunWithoutCoverageCallbacks) {
  const Measured add = measure(kAddKernel);
  const Measured more = measure(with_more_vector_work());
  ASSERT_GT(add.api_records, 0u);
  ASSERT_GT(more.api_records, add.api_records);
  EXPECT_LT(double(add.api_blocks), 300.0 * double(add.api_records))
      << add.api_blocks << " API blocks with coverage callbacks for " << add.api_records << " API records";
  const double added_records = double(more.api_records - add.api_records);
  const double added_blocks = double(more.api_blocks) - double(add.api_blocks);
  EXPECT_LT(added_blocks, 200.0 * added_records)
      << added_blocks << " more API blocks with coverage callbacks for " << added_records << " more API records";
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
