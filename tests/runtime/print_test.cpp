// Printing from kernels (aoc/print.h): AscendC::printf and PRINTF format like C's printf with
// half and bfloat16_t as floats; DumpTensor prints a tensor's values under its header; each
// core keeps its own text, the launcher hands it over per core, and a core prints at most 1 MB.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "aoc/launch.h"
#include "kernel_operator.h"

namespace {

std::string printed_by(const std::function<void()>& body, uint32_t cores = 1) {
  aoc::runtime::LaunchConfig cfg;
  cfg.block_dim = cores;
  const aoc::runtime::LaunchResult r = aoc::runtime::launch(cfg, body);
  EXPECT_TRUE(r.ok) << r.error;
  std::string out;
  for (const auto& c : r.cores) out += "<" + std::to_string(c.block_idx) + ">" + c.printed;
  return out;
}

TEST(KernelPrint, FormatsLikePrintf) {
  const std::string s = printed_by([] {
    AscendC::printf("n=%d u=%u x=%#x s=%s %%\n", -5, 7u, 255, "text");
    AscendC::PRINTF("f=%.2f h=%g b=%.1f e=%e\n", 1.25f, half(0.5f), bfloat16_t(2.0f), 1e-3);
    AscendC::printf("w=[%5d] [%-4s] l=%ld ll=%lld z=%zu\n", 42, "ab", 123456789012L, -9LL, size_t{3});
    AscendC::printf("missing %d %d\n", 1);
    AscendC::printf("no newline");
  });
  EXPECT_EQ(s, "<0>n=-5 u=7 x=0xff s=text %\n"
               "f=1.25 h=0.5 b=2.0 e=1.000000e-03\n"
               "w=[   42] [ab  ] l=123456789012 ll=-9 z=3\n"
               "missing 1 <missing>\n"
               "no newline");
}

TEST(KernelPrint, EachCoreKeepsItsOwnText) {
  const std::string s = printed_by([] { AscendC::printf("block %d of %d\n", int(AscendC::GetBlockIdx()), int(AscendC::GetBlockNum())); }, 3);
  EXPECT_EQ(s, "<0>block 0 of 3\n<1>block 1 of 3\n<2>block 2 of 3\n");
}

TEST(KernelPrint, DumpTensorPrintsTheValuesOfATensor) {
  const std::string s = printed_by([] {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64);
    AscendC::LocalTensor<half> t = buf.Get<half>();
    for (int i = 0; i < 32; ++i) t.aoc_ptr()[i] = half(float(i) / 2);
    AscendC::DumpTensor(t, 7, 4);
    AscendC::DumpTensor(t[30], 8, 16);  // 2 elements left in the tensor: no more are printed
    std::vector<int32_t> g = {3, -1, 4};
    AscendC::GlobalTensor<int32_t> gt;
    gt.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(g.data()), 3);
    AscendC::DumpTensor(gt, 9, 3);
  });
  EXPECT_EQ(s, "<0>DumpTensor: desc=7, addr=0, data_type=float16, position=UB, dump_size=4\n"
               "[0.000000, 0.500000, 1.000000, 1.500000]\n"
               "DumpTensor: desc=8, addr=60, data_type=float16, position=UB, dump_size=2\n"
               "[15.000000, 15.500000]\n"
               "DumpTensor: desc=9, addr=0, data_type=int32, position=GM, dump_size=3\n"
               "[3, -1, 4]\n");
}

TEST(KernelPrint, ACorePrintsAtMostOneMegabyte) {
  const std::string s = printed_by([] {
    const std::string line(999, 'x');
    for (int i = 0; i < 2000; ++i) AscendC::printf("%s\n", line.c_str());
  });
  EXPECT_EQ(s.size(), std::string("<0>").size() + aoc::kPrintBytesPerCore);
}

}  // namespace
