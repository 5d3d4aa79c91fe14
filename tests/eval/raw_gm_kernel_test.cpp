// A kernel that reads and writes GM through raw `__gm__` pointers, as many public kernels do,
// runs through the real evaluator: it passes, and the simulated time charges every access as
// the scalar GM access it is, so the scalar loop costs more than twice the vector version.
#include <gtest/gtest.h>

#include <string>

#include "eval/package_copy.h"

namespace {

// add with its whole pipeline replaced by one scalar loop over the core's share.
const char* const kRawAdd = R"(#include "kernel_operator.h"

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    uint32_t blockIdx = AscendC::GetBlockIdx();
    uint64_t offset = blockIdx < t.formerNum
                          ? uint64_t(t.formerLength) * blockIdx
                          : uint64_t(t.formerLength) * t.formerNum + uint64_t(t.tailLength) * (blockIdx - t.formerNum);
    uint64_t length = blockIdx < t.formerNum ? t.formerLength : t.tailLength;
    if (offset >= t.totalLength) return;
    if (offset + length > t.totalLength) length = t.totalLength - offset;
    __gm__ DTYPE_X* xs = (__gm__ DTYPE_X*)x + offset;
    __gm__ DTYPE_Y* ys = (__gm__ DTYPE_Y*)y + offset;
    __gm__ DTYPE_Z* zs = (__gm__ DTYPE_Z*)z + offset;
    for (uint64_t i = 0; i < length; ++i) zs[i] = (DTYPE_Z)((float)xs[i] + (float)ys[i]);
}
)";

TEST(RawGmKernel, PassesAndPaysForEveryScalarAccess) {
  const aoc::test::AddPackageCopy raw(kRawAdd);
  const aoc::eval::CandidateReport r = raw.run("Ascend910B1", {"prime_1021_fp16"});
  ASSERT_EQ(r.cases.size(), 1u) << r.message;
  EXPECT_EQ(r.cases[0].verdict, aoc::eval::Verdict::Ok) << r.cases[0].message;

  const aoc::test::AddPackageCopy vector(
      aoc::test::read_text(std::filesystem::path(AOC_SOURCE_DIR) / "ops/elementwise/add/op_kernel/add.cpp"));
  const aoc::eval::CandidateReport v = vector.run("Ascend910B1", {"prime_1021_fp16"});
  ASSERT_EQ(v.cases.size(), 1u) << v.message;
  ASSERT_EQ(v.cases[0].verdict, aoc::eval::Verdict::Ok) << v.cases[0].message;
  ASSERT_TRUE(r.cases[0].sim_us && v.cases[0].sim_us);
  // 13 x 1021 elements, three scalar GM accesses each, spread over the cores: the scalar loop
  // is well over twice as slow as DataCopy + Add (7.44 vs 3.18 us when written).
  EXPECT_GT(*r.cases[0].sim_us, 2 * *v.cases[0].sim_us)
      << *r.cases[0].sim_us << " vs " << *v.cases[0].sim_us;
}

}  // namespace
