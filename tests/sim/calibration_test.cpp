// The model against whole-kernel measurements on Atlas A2 (data/calibration): the Add
// ladder and the GM->UB copy tile sweep, rebuilt as traces. Bounds are loose on purpose;
// the printed errors are the record of how far the model is from the hardware.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "sim/engine.h"
#include "sim/profile.h"
#include "sim_test_util.h"

using namespace aoc;
using namespace aoc::sim;
using namespace simtest;

namespace {

// z = x + y over `elems` halves per core in tiles of `tile` elements, TQue-style flags.
Trace add_kernel(uint64_t elems, uint64_t tile, int buffers, bool conflict_free, uint64_t gm) {
  std::vector<TraceRecord> recs;
  const uint64_t bytes = tile * 2;
  const uint64_t iters = (elems + tile - 1) / tile;
  for (uint64_t i = 0; i < iters; ++i) {
    uint8_t b = uint8_t(i % buffers);
    // x, y and z buffers back to back as TPipe places them; a 256 B shift moves y off x's bank groups.
    uint64_t x = b * bytes;
    uint64_t y = buffers * bytes + b * bytes + (conflict_free ? 256 : 0);
    uint64_t z = 2 * buffers * bytes + 512 + b * bytes;
    if (i >= uint64_t(buffers)) recs.push_back(wait_flag(Pipe::V, Pipe::MTE2, b, 1, true));
    recs.push_back(copy_in(x, gm + i * bytes, bytes));
    recs.push_back(copy_in(y, gm + (1ull << 30) + i * bytes, bytes));
    recs.push_back(set_flag(Pipe::MTE2, Pipe::V, b, 2, true));
    recs.push_back(wait_flag(Pipe::MTE2, Pipe::V, b, 2, true));
    if (i >= uint64_t(buffers)) recs.push_back(wait_flag(Pipe::MTE3, Pipe::V, b, 3, true));
    recs.push_back(vadd(z, x, y, tile));
    recs.push_back(set_flag(Pipe::V, Pipe::MTE2, b, 4, true));
    recs.push_back(set_flag(Pipe::V, Pipe::MTE3, b, 5, true));
    recs.push_back(wait_flag(Pipe::V, Pipe::MTE3, b, 5, true));
    recs.push_back(copy_out(gm + (2ull << 30) + i * bytes, z, bytes));
    recs.push_back(set_flag(Pipe::MTE3, Pipe::V, b, 6, true));
    recs.push_back(scalar(20));  // loop control and address arithmetic
  }
  return trace_of(recs);
}

double rel_err(double sim, double hw) { return (sim - hw) / hw; }

}  // namespace

TEST(Calibration, AddLadderA2) {
  Soc soc = load_soc("Ascend910B1");
  struct Case { int id, cores; uint64_t tile; int buffers; bool conflict_free; double task_us, vec_us; };
  // add_ladder_a2.csv rows 1, 2, 3, 4, 6 (row 5/6 also bypass L2, which the model does not distinguish).
  const Case cases[] = {{1, 1, 4096, 1, false, 6909.6, 761.65},  {2, 48, 4096, 1, false, 306.58, 15.885},
                        {3, 48, 16384, 1, false, 268.5, 12.845}, {4, 48, 16384, 2, false, 264.02, 12.846},
                        {6, 48, 16256, 2, true, 184.52, 6.954}};
  for (const auto& c : cases) {
    uint64_t per_core = 8192ull * 8192 / c.cores;
    std::vector<Trace> traces;
    for (int k = 0; k < c.cores; ++k) traces.push_back(add_kernel(per_core, c.tile, c.buffers, c.conflict_free, uint64_t(k) << 26));
    std::vector<BlockTrace> blocks;
    for (auto& t : traces) blocks.push_back({&t, CoreType::AIV});
    SimResult r = simulate(soc, blocks, EngineOptions{false});
    Profile p = make_profile(soc, r);
    double e = rel_err(r.task_duration_us, c.task_us);
    double ev = rel_err(p.fields["aiv_vec_time"], c.vec_us);
    std::printf("add case %d: task %.1f us (measured %.1f, error %+.0f%%), vec %.2f us (measured %.2f, %+.0f%%)\n", c.id,
                r.task_duration_us, c.task_us, 100 * e, p.fields["aiv_vec_time"], c.vec_us, 100 * ev);
    EXPECT_LT(std::abs(e), 0.6) << "case " << c.id;
    EXPECT_LT(std::abs(ev), 0.35) << "case " << c.id;
  }
}

TEST(Calibration, CopyTileSweepA2) {
  Soc soc = load_soc("Ascend910B1");
  struct Case { uint64_t rows, cols; double task_us; };
  const Case cases[] = {{1, 64, 564.8}, {64, 64, 233.5}, {64, 1024, 215.8}};
  const uint64_t row_bytes = 12288 * 2;
  for (const auto& c : cases) {
    std::vector<Trace> traces;
    const uint64_t rows_per_core = 12288 / 48;
    for (int k = 0; k < 48; ++k) {
      std::vector<TraceRecord> recs;
      uint64_t base = uint64_t(k) * rows_per_core * row_bytes;
      int n = 0;
      for (uint64_t r0 = 0; r0 < rows_per_core; r0 += c.rows)
        for (uint64_t col = 0; col < 12288; col += c.cols) {
          uint8_t b = uint8_t(n++ % 2);
          auto cp = copy_in(b * 65536, base + r0 * row_bytes + col * 2, c.rows * c.cols * 2);
          cp.bursts = uint32_t(c.rows);
          cp.burst_bytes = uint32_t(c.cols * 2);
          cp.src_gap = row_bytes - c.cols * 2;
          recs.push_back(cp);
          recs.push_back(scalar(10));
        }
      traces.push_back(trace_of(recs));
    }
    std::vector<BlockTrace> blocks;
    for (auto& t : traces) blocks.push_back({&t, CoreType::AIV});
    SimResult r = simulate(soc, blocks, EngineOptions{false});
    double e = rel_err(r.task_duration_us, c.task_us);
    std::printf("copy tile [%llu,%llu]: task %.1f us (measured %.1f, error %+.0f%%)\n", (unsigned long long)c.rows,
                (unsigned long long)c.cols, r.task_duration_us, c.task_us, 100 * e);
    EXPECT_LT(std::abs(e), 0.6);
  }
}
