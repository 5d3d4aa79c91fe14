// -DASCENDC_DUMP=0 compiles kernel printing out, as on the device: the calls stay valid code
// and print nothing.
#define ASCENDC_DUMP 0
#include <gtest/gtest.h>

#include "aoc/launch.h"
#include "kernel_operator.h"

TEST(KernelPrint, AscendcDumpZeroPrintsNothing) {
  aoc::runtime::LaunchConfig cfg;
  const aoc::runtime::LaunchResult r = aoc::runtime::launch(cfg, [] {
    AscendC::printf("%d\n", 1);
    AscendC::PRINTF("%s\n", "x");
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64);
    AscendC::DumpTensor(buf.Get<float>(), 1, 4);
  });
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.cores.size(), 1u);
  EXPECT_EQ(r.cores[0].printed, "");
}
