// Steady-state skipping (sim/steady_state.h) against simulation of every instruction: the same
// traces with EngineOptions::steady_state on and off. Where the state repeats, iterations are
// skipped and the results agree to rounding; kernels built to defeat it (last iterations that
// differ, data-dependent iterations, an L2 working set that fills L2 mid-loop, several waves)
// still agree, skipping only what repeats.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "sim/engine.h"
#include "sim/soc.h"

using namespace aoc;
using namespace aoc::sim;

namespace {

// How one iteration of the double-buffered copy-in / add / copy-out loop moves: bytes per tile.
using TileBytes = std::function<uint64_t(int iteration)>;

TraceRecord rec(RecKind k, Pipe p, const char* op) {
  TraceRecord r;
  r.kind = k;
  r.pipe = p;
  r.op = op;
  r.file = "steady_kernel.cpp";
  return r;
}

// A block's trace: a scalar prologue, `iters` iterations of the loop, each moving tile(i) bytes
// in from GM at gm_in and out to gm_out (consecutive tiles), with the queue flags of double
// buffering.
Trace pipelined(int iters, uint64_t gm_in, uint64_t gm_out, const TileBytes& tile) {
  Trace t;
  auto scalar = rec(RecKind::Scalar, Pipe::S, "KernelScalar");
  scalar.kernel_blocks = 40;
  t.records.push_back(scalar);
  uint64_t off = 0;
  for (int i = 0; i < iters; ++i) {
    const uint64_t bytes = tile(i);
    const uint8_t b = uint8_t(i % 2);
    const uint64_t in = b * 32768, out = 65536 + b * 32768;
    auto flag = [&](RecKind k, Pipe src, Pipe dst) {
      auto r = rec(k, src, k == RecKind::SetFlag ? "SetFlag" : "WaitFlag");
      r.peer = dst;
      r.event_id = b;
      t.records.push_back(r);
    };
    if (i >= 2) flag(RecKind::WaitFlag, Pipe::V, Pipe::MTE2);
    auto cin = rec(RecKind::Copy, Pipe::MTE2, "DataCopy");
    cin.bytes = cin.burst_bytes = uint32_t(bytes);
    cin.bursts = 1;
    cin.nreads = 1;
    cin.reads[0] = {Space::GM, gm_in + off, gm_in + off + bytes};
    cin.has_write = true;
    cin.write = {Space::UB, in, in + bytes};
    t.records.push_back(cin);
    flag(RecKind::SetFlag, Pipe::MTE2, Pipe::V);
    flag(RecKind::WaitFlag, Pipe::MTE2, Pipe::V);
    if (i >= 2) flag(RecKind::WaitFlag, Pipe::MTE3, Pipe::V);
    auto add = rec(RecKind::Compute, Pipe::V, "Add");
    add.dtype = DType::F16;
    add.elems = bytes / 2;
    add.nreads = 2;
    add.reads[0] = {Space::UB, in, in + bytes};
    add.reads[1] = {Space::UB, in, in + bytes};
    add.has_write = true;
    add.write = {Space::UB, out, out + bytes};
    t.records.push_back(add);
    auto s = rec(RecKind::Scalar, Pipe::S, "KernelScalar");
    s.kernel_blocks = 6;
    t.records.push_back(s);
    flag(RecKind::SetFlag, Pipe::V, Pipe::MTE2);
    flag(RecKind::SetFlag, Pipe::V, Pipe::MTE3);
    flag(RecKind::WaitFlag, Pipe::V, Pipe::MTE3);
    auto cout = rec(RecKind::Copy, Pipe::MTE3, "DataCopy");
    cout.bytes = cout.burst_bytes = uint32_t(bytes);
    cout.bursts = 1;
    cout.nreads = 1;
    cout.reads[0] = {Space::UB, out, out + bytes};
    cout.has_write = true;
    cout.write = {Space::GM, gm_out + off, gm_out + off + bytes};
    t.records.push_back(cout);
    flag(RecKind::SetFlag, Pipe::MTE3, Pipe::V);
    off += bytes;
  }
  return t;
}

struct Launch {
  std::vector<Trace> traces;
  std::vector<BlockTrace> blocks() const {
    std::vector<BlockTrace> b;
    for (const auto& t : traces) b.push_back({&t, CoreType::AIV});
    return b;
  }
};

Launch launch(int nblocks, int iters, const TileBytes& tile) {
  Launch l;
  for (int c = 0; c < nblocks; ++c)
    l.traces.push_back(pipelined(iters, uint64_t(c + 1) << 32, (uint64_t(c + 1) << 32) + (1ull << 31), tile));
  return l;
}

const Soc& soc() {
  static const Soc s = load_soc("Ascend910B1");
  return s;
}

// Both ways; expects the same Task Duration, block ends and per-pipe busy times (to rounding:
// skipped periods add their times as products instead of sums), and returns the skipping run.
SimResult compare(const Launch& l, double rel = 1e-9) {
  EngineOptions full, steady;
  full.record_spans = steady.record_spans = false;
  full.steady_state = false;
  const SimResult a = simulate(soc(), l.blocks(), full);
  const SimResult b = simulate(soc(), l.blocks(), steady);
  EXPECT_EQ(a.skipped_instructions, 0u);
  EXPECT_NEAR(b.task_duration_us, a.task_duration_us, rel * a.task_duration_us);
  EXPECT_EQ(a.blocks.size(), b.blocks.size());
  for (size_t i = 0; i < a.blocks.size() && i < b.blocks.size(); ++i) {
    EXPECT_NEAR(b.blocks[i].end, a.blocks[i].end, rel * a.blocks[i].end) << "block " << i;
    EXPECT_NEAR(b.blocks[i].start, a.blocks[i].start, rel * a.blocks[i].end + 1e-9) << "block " << i;
    EXPECT_EQ(b.blocks[i].instructions, a.blocks[i].instructions) << "block " << i;
    for (int p = 0; p < kPipes; ++p)
      EXPECT_NEAR(b.blocks[i].busy[p], a.blocks[i].busy[p], rel * a.blocks[i].busy[p] + 1e-6)
          << "block " << i << " pipe " << p;
  }
  return b;
}

uint64_t records(const Launch& l) {
  uint64_t n = 0;
  for (const auto& t : l.traces) n += t.records.size();
  return n;
}

TEST(SteadyState, OneBlockLoopSkipsAlmostEverything) {
  const Launch l = launch(1, 2000, [](int) { return 16384; });
  const SimResult r = compare(l);
  EXPECT_GT(r.skipped_instructions, records(l) * 9 / 10);
}

TEST(SteadyState, EightBlocksSharingBandwidthSkip) {
  const Launch l = launch(8, 1000, [](int) { return 16384; });
  const SimResult r = compare(l);
  EXPECT_GT(r.skipped_instructions, records(l) / 2);
}

TEST(SteadyState, LastIterationsThatDifferAreSimulated) {
  // A shorter tail tile for the last three iterations: skipping stops before them.
  const int iters = 1500;
  const Launch l = launch(4, iters, [&](int i) { return i >= iters - 3 ? 2048 + 32 * (iters - i) : 16384; });
  const SimResult r = compare(l);
  EXPECT_GT(r.skipped_instructions, 0u);
}

TEST(SteadyState, DataDependentIterationsAreNotSkipped) {
  // Tile sizes from a fixed pseudo-random sequence: no two windows look alike, nothing is skipped.
  uint64_t x = 88172645463325252ull;
  std::vector<uint64_t> sizes;
  for (int i = 0; i < 600; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    sizes.push_back(4096 + 32 * (x % 300));
  }
  const Launch l = launch(2, 600, [&](int i) { return sizes[size_t(i)]; });
  const SimResult r = compare(l);
  EXPECT_EQ(r.skipped_instructions, 0u);
}

TEST(SteadyState, WorkingSetThatFillsL2MidLoopStaysExact) {
  // 2 blocks move 2 x 32 KB per iteration; 192 MB of L2 fills after about 3000 iterations, and
  // from then on every allocation evicts: the L2 outcomes change, and skipping stops there.
  const Launch l = launch(2, 4500, [](int) { return 32768; });
  const SimResult r = compare(l);
  EXPECT_GT(r.skipped_instructions, 0u);
}

TEST(SteadyState, SeveralWavesStayExact) {
  // 60 blocks on 48 cores: the second wave starts as the first ends.
  const Launch l = launch(60, 300, [](int) { return 8192; });
  compare(l);
}

TEST(SteadyState, OffWithSpansOrWhenAsked) {
  const Launch l = launch(1, 400, [](int) { return 16384; });
  EngineOptions spans;
  spans.record_spans = true;
  EXPECT_EQ(simulate(soc(), l.blocks(), spans).skipped_instructions, 0u);
  EngineOptions off;
  off.record_spans = false;
  off.steady_state = false;
  EXPECT_EQ(simulate(soc(), l.blocks(), off).skipped_instructions, 0u);
}

}  // namespace
