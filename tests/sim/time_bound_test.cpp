// The write bound (sim/time_bound.h): its figures on the 910B1 file, and that the timing engine
// cannot beat it, whatever the blocks write with: large copies from every core, scalar stores,
// or both at once.
#include <gtest/gtest.h>

#include "sim/engine.h"
#include "sim/soc.h"
#include "sim/time_bound.h"
#include "sim_test_util.h"

using namespace aoc::sim;
using namespace simtest;

namespace {

// `blocks` blocks, each storing `per_block` bytes into its own part of GM with copies of
// `copy_bytes`, and `scalar_stores` 8-byte scalar stores.
double simulate_writes(const Soc& soc, int blocks, uint64_t per_block, uint64_t copy_bytes, uint64_t scalar_stores) {
  std::vector<aoc::Trace> traces;
  for (int b = 0; b < blocks; ++b) {
    std::vector<aoc::TraceRecord> recs;
    const uint64_t gm0 = (uint64_t(b) + 1) << 32;
    for (uint64_t done = 0; done < per_block; done += copy_bytes)
      recs.push_back(copy_out(gm0 + done, 0, std::min(copy_bytes, per_block - done)));
    if (scalar_stores > 0) {
      auto s = base(aoc::RecKind::Scalar, aoc::Pipe::S, "GmSetValue", 70);
      s.elems = scalar_stores;
      s.dtype = aoc::DType::I64;
      s.has_write = true;
      s.write = gm(gm0 + (uint64_t(1) << 31), gm0 + (uint64_t(1) << 31) + 8 * scalar_stores);
      recs.push_back(s);
    }
    traces.push_back(trace_of(recs));
  }
  std::vector<BlockTrace> bt;
  for (const auto& t : traces) bt.push_back(BlockTrace{&t, CoreType::AIV});
  return simulate(soc, bt).task_duration_us;
}

}  // namespace

TEST(WriteBound, FiguresOfThe910B1) {
  const Soc soc = load_soc("Ascend910B1");
  const WriteBound none = write_bound(soc, 0);
  // dispatch 0.25 + end response 0.22 + (1700 + 200 cycles) / 1.85 GHz
  EXPECT_NEAR(none.fixed_us, 0.47 + 1900 / 1850.0, 1e-9);
  EXPECT_DOUBLE_EQ(none.time_us, none.fixed_us);
  // L2 write pool 2400 GB/s at 1.85 GHz, plus 72 scalar units storing 8 bytes a cycle.
  EXPECT_NEAR(peak_gm_write_bytes_per_cycle(soc), 2400.0 / 1.85 + 72 * 8, 1e-6);
  const WriteBound mb = write_bound(soc, 64.0 * 1024 * 1024);
  EXPECT_NEAR(mb.time_us - mb.fixed_us, 64.0 * 1024 * 1024 / (2400.0 / 1.85 + 576) / 1850.0, 1e-9);
  EXPECT_NE(mb.formula().find("67108864 bytes"), std::string::npos) << mb.formula();
}

TEST(WriteBound, TheEngineCannotBeatIt) {
  const Soc soc = load_soc("Ascend910B1");
  struct Shape {
    int blocks;
    uint64_t per_block, copy_bytes, scalar_stores;
  };
  for (const Shape& s : {Shape{1, 0, 1, 0}, Shape{1, 32, 32, 0}, Shape{48, 1 << 20, 64 << 10, 0},
                         Shape{48, 4 << 20, 192 << 10, 0}, Shape{96, 2 << 20, 128 << 10, 0},
                         Shape{48, 0, 1, 4096}, Shape{48, 2 << 20, 64 << 10, 65536}}) {
    const double bytes = double(s.blocks) * double(s.per_block + 8 * s.scalar_stores);
    const double t = simulate_writes(soc, s.blocks, s.per_block, s.copy_bytes, s.scalar_stores);
    const WriteBound b = write_bound(soc, bytes);
    EXPECT_GE(t, b.time_us) << s.blocks << " blocks x " << s.per_block << " B: " << b.formula();
  }
}

// The bound is not loose for the case it is made for: every core streaming its share to GM
// in large copies comes within 1.5x of it (the launch work of the other blocks and the copies'
// latency are all it leaves out).
TEST(WriteBound, LargeStreamingWritesComeClose) {
  const Soc soc = load_soc("Ascend910B1");
  const uint64_t per_block = 8 << 20;
  const double t = simulate_writes(soc, 48, per_block, 192 << 10, 0);
  const WriteBound b = write_bound(soc, 48.0 * per_block);
  EXPECT_GE(t, b.time_us);
  EXPECT_LT(t, 1.5 * b.time_us) << t << " us against " << b.time_us;
}
