#include <gtest/gtest.h>

#include "sim/cost_model.h"
#include "sim/engine.h"
#include "sim/sim_error.h"
#include "sim_test_util.h"

using namespace aoc;
using namespace aoc::sim;
using namespace simtest;

namespace {

SimResult run1(const Soc& soc, const Trace& t) { return simulate(soc, {BlockTrace{&t, CoreType::AIV}}); }

const Span* find_span(const SimResult& r, uint32_t block, uint32_t rec) {
  for (const auto& s : r.spans)
    if (s.block == block && s.rec == rec) return &s;
  return nullptr;
}

}  // namespace

TEST(Engine, SingleVectorOp) {
  Soc soc = round_soc();
  // 256 halves: the table says 5 cycles; operands in distinct bank groups.
  Trace t = trace_of({vadd(512, 0, 256, 256)});
  SimResult r = run1(soc, t);
  EXPECT_DOUBLE_EQ(r.cycles, 5);
  EXPECT_DOUBLE_EQ(r.blocks[0].busy[int(Pipe::V)], 5);
  EXPECT_DOUBLE_EQ(r.blocks[0].busy[int(Pipe::S)], 1);  // one issue
  EXPECT_DOUBLE_EQ(r.launch_us, 1.0);
  EXPECT_DOUBLE_EQ(r.task_duration_us, 1.0 + 0.005);
}

TEST(Engine, BankConflictAddsBeats) {
  Soc soc = round_soc();
  // Both sources start in bank group 0: two reads per group per repeat -> 2 beats, 2 repeats.
  TraceRecord rec = vadd(512, 0, 4096, 256);
  EXPECT_EQ(bank_conflict_beats(soc, rec), 2);
  Trace t = trace_of({rec});
  EXPECT_DOUBLE_EQ(run1(soc, t).cycles, 5 + 2);
  EXPECT_EQ(bank_conflict_beats(soc, vadd(512, 0, 256, 256)), 1);
}

TEST(Engine, SingleCopyLatencyPlusBandwidth) {
  Soc soc = round_soc();
  Trace t = trace_of({copy_in(0, 4096, 1024)});
  SimResult r = run1(soc, t);
  // 10 issue cycles + 1024 B at 10 B/cycle + 100 latency.
  EXPECT_NEAR(r.cycles, 10 + 102.4 + 100, 1e-9);
  EXPECT_NEAR(r.blocks[0].busy[int(Pipe::MTE2)], 112.4, 1e-9);
  // A GM start that is only 32-B aligned halves the efficiency in this SoC, for the bytes that share
  // a 512 B window with bytes outside the burst: the 480 B head and the 32 B tail; the full window
  // between them moves at full rate: 512 + 512 / 0.5 = 1536 effective bytes.
  Trace u = trace_of({copy_in(0, 4096 + 32, 1024)});
  EXPECT_NEAR(run1(soc, u).cycles, 10 + 153.6 + 100, 1e-9);
  // A burst inside one window is all edge: 256 B / 0.5.
  Trace v = trace_of({copy_in(0, 4096 + 32, 256)});
  EXPECT_NEAR(run1(soc, v).cycles, 10 + 51.2 + 100, 1e-9);
}

TEST(Engine, BurstRateCapsStridedCopies) {
  Soc soc = round_soc();
  // Eight 512 B bursts 1 KB apart: 4096 B at the path's 10 B/cycle.
  auto strided = copy_in(0, 4096, 4096);
  strided.bursts = 8;
  strided.burst_bytes = 512;
  strided.src_gap = 512;
  strided.reads[0] = gm(4096, 4096 + 7 * 1024 + 512);
  EXPECT_NEAR(run1(soc, trace_of({strided})).cycles, 10 + 409.6 + 100, 1e-9);
  // One burst per 100 cycles: 8 bursts take 800 cycles, whatever the bytes allow.
  soc.paths["gm_to_ub"].burst_cycles = 100;
  EXPECT_NEAR(run1(soc, trace_of({strided})).cycles, 10 + 800 + 100, 1e-9);
  // A long single burst is not held back by the burst rate.
  EXPECT_NEAR(run1(soc, trace_of({copy_in(0, 4096, 4096)})).cycles, 10 + 409.6 + 100, 1e-9);
}

TEST(Engine, WaitFlagSerialises) {
  Soc soc = round_soc();
  Trace racy = trace_of({vadd(512, 0, 256, 256), copy_out(8192, 512, 512)});
  SimResult a = run1(soc, racy);
  EXPECT_DOUBLE_EQ(find_span(a, 0, 1)->start, 1);  // copy starts as soon as it is issued
  Trace synced = trace_of({vadd(512, 0, 256, 256), set_flag(Pipe::V, Pipe::MTE3, 0),
                           wait_flag(Pipe::V, Pipe::MTE3, 0), copy_out(8192, 512, 512)});
  SimResult b = run1(soc, synced);
  // Add ends at 5, SetFlag fires at 5 + 1, WaitFlag takes 1 more: the copy starts at 7.
  EXPECT_DOUBLE_EQ(find_span(b, 0, 3)->start, 7);
  EXPECT_NEAR(b.cycles, 7 + 10 + 51.2 + 50, 1e-9);
  ASSERT_EQ(b.arrows.size(), 1u);
  EXPECT_EQ(b.arrows[0].set_rec, 1u);
  EXPECT_EQ(b.arrows[0].wait_rec, 2u);
}

// Two copies signalling one borrowed event id before two waits (FetchEventID twice, as official
// norm kernels do): the sets are counted and matched to the waits in order, first to first.
TEST(Engine, TwoSetsOfOneFlagAreTakenInOrder) {
  Soc soc = round_soc();
  Trace t = trace_of({copy_in(0, 4096, 1024), set_flag(Pipe::MTE2, Pipe::V, 0, 40), copy_in(2048, 8192, 1024),
                      set_flag(Pipe::MTE2, Pipe::V, 0, 42), wait_flag(Pipe::MTE2, Pipe::V, 0, 43),
                      wait_flag(Pipe::MTE2, Pipe::V, 0, 44), vadd(4096, 0, 2048, 256)});
  EngineOptions eo;
  eo.record_spans = true;
  const SimResult r = simulate(soc, {BlockTrace{&t, CoreType::AIV}}, eo);
  ASSERT_EQ(r.arrows.size(), 2u);
  EXPECT_EQ(r.arrows[0].set_rec, 1u);
  EXPECT_EQ(r.arrows[0].wait_rec, 4u);
  EXPECT_EQ(r.arrows[1].set_rec, 3u);
  EXPECT_EQ(r.arrows[1].wait_rec, 5u);
  EXPECT_LT(r.arrows[0].set_time, r.arrows[1].set_time);  // the second copy ends later
}

TEST(Engine, PipelinedLoopOverlapsPipes) {
  Soc soc = round_soc();
  std::vector<TraceRecord> recs;
  const int iters = 8;
  for (int i = 0; i < iters; ++i) {
    uint64_t buf = (i % 2) * 8192;
    recs.push_back(copy_in(buf, 1 << 20, 2048));
    recs.push_back(set_flag(Pipe::MTE2, Pipe::V, 0));
    recs.push_back(wait_flag(Pipe::MTE2, Pipe::V, 0));
    recs.push_back(vadd(buf + 4096, buf, buf + 2048 + 256, 1024));
    recs.push_back(set_flag(Pipe::V, Pipe::MTE3, 0));
    recs.push_back(wait_flag(Pipe::V, Pipe::MTE3, 0));
    recs.push_back(copy_out(2 << 20, buf + 4096, 2048));
  }
  Trace t = trace_of(recs);
  SimResult r = run1(soc, t);
  const auto& busy = r.blocks[0].busy;
  double sum = busy[int(Pipe::MTE2)] + busy[int(Pipe::V)] + busy[int(Pipe::MTE3)];
  EXPECT_LT(r.cycles, sum);
  EXPECT_GT(r.cycles, busy[int(Pipe::MTE2)]);
  // Draining everything each iteration removes the overlap.
  std::vector<TraceRecord> serial;
  for (size_t i = 0; i < recs.size(); ++i) {
    serial.push_back(recs[i]);
    if (i % 7 == 6) serial.push_back(barrier(Pipe::ALL));
  }
  Trace ts = trace_of(serial);
  SimResult s = run1(soc, ts);
  EXPECT_GT(s.cycles, r.cycles);
  EXPECT_GE(s.cycles, sum);
}

// UB ports arbitrate per bank: a copy into the banks a running vector instruction uses makes no
// progress while it runs (dma_vector_stall = 1); a copy into other banks, or with the stall off,
// is not delayed. The copy (20000 B at 10 B/cycle) outlasts the vector instruction, which the
// scalar work before it starts after the copy's data has begun to move.
TEST(Engine, VectorOnTheSameUbBanksStallsATransfer) {
  auto mte2_busy = [](double stall, uint64_t vector_base) {
    Soc soc = round_soc();
    soc.dma_vector_bank_stall = stall;
    std::vector<TraceRecord> recs{copy_in(65536, 1 << 20, 20000), scalar(50),
                                  vadd(vector_base + 8192, vector_base, vector_base + 4096, 2048)};
    Trace t = trace_of(recs);
    SimResult r = run1(soc, t);
    return std::pair{r.blocks[0].busy[int(Pipe::MTE2)], r.blocks[0].busy[int(Pipe::V)]};
  };
  const auto [alone, vec] = mte2_busy(0.0, 65536);
  EXPECT_GE(alone, 10 + 20000 / 10.0);  // issue + bytes / rate (+ partial 512 B windows)
  const auto [other_banks, vec2] = mte2_busy(1.0, 131072);
  EXPECT_DOUBLE_EQ(other_banks, alone);
  const auto [same_banks, vec3] = mte2_busy(1.0, 65536);
  EXPECT_DOUBLE_EQ(vec3, vec);
  EXPECT_GT(vec, 0);
  EXPECT_DOUBLE_EQ(same_banks, alone + vec);
  // A partial stall leaves the copy part of its rate while the vector instruction runs.
  const auto [half_stall, vec4] = mte2_busy(0.5, 65536);
  EXPECT_DOUBLE_EQ(half_stall, alone + vec * 0.5);
}

TEST(Engine, UbBanksTouchedFollowTheAddressLayout) {
  Soc soc = round_soc();
  // 512 B from 0: all 16 groups of bank 0. 64 B at 64 KB + 96: groups 3 and 4 of bank 1.
  TraceRecord r = vadd(0, 65536 + 96, 65536 + 96, 32);
  r.write = ub(0, 512);
  EXPECT_EQ(ub_banks_touched(soc, r), 0xffffull | (0x18ull << 16));
  TraceRecord g = copy_in(0, 0, 64);
  g.write = ub(131072 + 480, 131072 + 544);  // across a bank-group wrap: groups 15 and 0 of bank 2
  EXPECT_EQ(ub_banks_touched(soc, g), (1ull << 47) | (1ull << 32));
}

TEST(Engine, QueueDepthStallsIssue) {
  Soc soc = round_soc();  // queue depth 4
  std::vector<TraceRecord> recs;
  for (int i = 0; i < 10; ++i) recs.push_back(vadd(512, 0, 256, 1280, 10, "Foo"));  // fallback: 2560 B / 256 = 10 cycles
  recs.push_back(scalar(1));
  Trace t = trace_of(recs);
  SimResult r = run1(soc, t);
  EXPECT_DOUBLE_EQ(r.cycles, 100);
  // The 10th op can enter the 4-deep queue only when the 5th starts (t = 50); then S is free at 51.
  EXPECT_DOUBLE_EQ(find_span(r, 0, 10)->start, 51);
}

TEST(Engine, BandwidthSharedAcrossCores) {
  Soc soc = round_soc();  // HBM 100 B/cycle, 10 B/cycle per core
  // Each core reads its own GM range: shared ranges would be served from L2 after the first miss.
  std::vector<Trace> traces;
  for (int i = 0; i < 20; ++i) traces.push_back(trace_of({copy_in(0, 4096 + (uint64_t(i) << 20), 10240)}));
  auto blocks = [&](int n) {
    std::vector<BlockTrace> b;
    for (int i = 0; i < n; ++i) b.push_back(BlockTrace{&traces[i], CoreType::AIV});
    return b;
  };
  EXPECT_NEAR(simulate(soc, blocks(1)).cycles, 10 + 1024 + 100, 1e-6);
  EXPECT_NEAR(simulate(soc, blocks(10)).cycles, 10 + 1024 + 100, 1e-6);  // exactly saturates HBM
  SimResult r20 = simulate(soc, blocks(20));
  EXPECT_NEAR(r20.cycles, 10 + 2048 + 100, 1e-6);  // each core gets 5 B/cycle
  EXPECT_NEAR(r20.launch_us, 1.0, 1e-12);  // the scheduler's share does not grow with the cores
}

// Blocks start one block_dispatch_us after another, each runs its start work on the scalar unit
// before its first instruction and its end work after its pipes drain; the scheduler's dispatch
// and end response come on top.
TEST(Engine, LaunchStaggersBlocksAndAddsStartAndEndWork) {
  Soc soc = round_soc(48, "dispatch_us = 0.3\nend_response_us = 0.2\nblock_dispatch_us = 0.01\n"
                          "block_start_cycles = 40\nblock_end_cycles = 7\nper_wave_us = 0\n");
  // 256 halves of Add: 5 cycles of V from the moment S issues it (its issue cycle overlaps).
  Trace t = trace_of({vadd(512, 0, 256, 256)});
  std::vector<BlockTrace> three(3, BlockTrace{&t, CoreType::AIV});
  SimResult r = simulate(soc, three);
  ASSERT_EQ(r.blocks.size(), 3u);
  for (int b = 0; b < 3; ++b) {
    const double start = 10.0 * b;  // 0.01 us at 1 GHz
    EXPECT_DOUBLE_EQ(r.blocks[b].start, start);
    // start work 40, Add 5, end work 7
    EXPECT_DOUBLE_EQ(r.blocks[b].end, start + 40 + 5 + 7);
    EXPECT_DOUBLE_EQ(r.blocks[b].busy[int(Pipe::S)], 40 + 1 + 7);
  }
  EXPECT_DOUBLE_EQ(r.cycles, 20 + 52);
  EXPECT_DOUBLE_EQ(r.launch_us, 0.5);
  EXPECT_NEAR(r.task_duration_us, 0.5 + 0.072, 1e-12);
  // One block: no stagger.
  EXPECT_NEAR(simulate(soc, {three[0]}).task_duration_us, 0.5 + 0.052, 1e-12);
}

TEST(Engine, OldLaunchKeysAreRejectedWithTheReplacementNamed) {
  try {
    round_soc(48, "base_us = 0.5\nper_core_us = 0.15\nper_wave_us = 0\n");
    FAIL() << "expected an error";
  } catch (const aoc::sim::SimError& e) {
    EXPECT_NE(std::string(e.what()).find("block_dispatch_us"), std::string::npos) << e.what();
  }
}

TEST(Engine, SharedInputIsServedFromL2) {
  Soc soc = round_soc();
  Trace t = trace_of({copy_in(0, 4096, 10240)});
  std::vector<BlockTrace> twenty(20, BlockTrace{&t, CoreType::AIV});
  // One core misses; the others hit the lines it brought in, so HBM is not the limit.
  EXPECT_LT(simulate(soc, twenty).cycles, 10 + 2048 + 100);
}

TEST(Engine, ReadWriteMixingReducesBandwidth) {
  Soc soc = round_soc();
  soc.l2_bytes = 4096;  // a tiny L2: writes evict dirty lines, so HBM reads and writes at once
  std::vector<Trace> rd, wr;
  for (int i = 0; i < 10; ++i) {
    rd.push_back(trace_of({copy_in(0, 4096 + (uint64_t(i) << 20), 10240)}));
    wr.push_back(trace_of({copy_out((uint64_t(64 + i) << 20), 0, 10240)}));
  }
  std::vector<BlockTrace> readers, mixed;
  for (int i = 0; i < 10; ++i) {
    readers.push_back({&rd[i], CoreType::AIV});
    mixed.push_back({&rd[i], CoreType::AIV});
    mixed.push_back({&wr[i], CoreType::AIV});
  }
  const double alone = simulate(soc, readers).blocks[0].end;
  const double with_writebacks = simulate(soc, mixed).blocks[0].end;
  EXPECT_GT(with_writebacks, alone);
}

TEST(Engine, WavesWhenBlocksExceedCores) {
  Soc soc = round_soc(2);
  Trace t = trace_of({vadd(512, 0, 256, 1280, 10, "Foo")});
  std::vector<BlockTrace> four(4, BlockTrace{&t, CoreType::AIV});
  SimResult r = simulate(soc, four);
  EXPECT_EQ(r.waves, 2);
  EXPECT_DOUBLE_EQ(r.cycles, 20);
  EXPECT_DOUBLE_EQ(r.blocks[2].start, 10);
}

TEST(Engine, SyncAllWaitsForSlowestCore) {
  Soc soc = round_soc();
  Trace slow = trace_of({vadd(512, 0, 256, 12800, 10, "Foo"), base(RecKind::SyncAll, Pipe::ALL, "SyncAll", 70), scalar(5)});
  Trace fast = trace_of({vadd(512, 0, 256, 128, 10, "Foo"), base(RecKind::SyncAll, Pipe::ALL, "SyncAll", 70), scalar(5)});
  SimResult r = simulate(soc, {{&slow, CoreType::AIV}, {&fast, CoreType::AIV}});
  // slow: 100 cycles of V, then SyncAll (10), then 5 scalar cycles.
  EXPECT_DOUBLE_EQ(r.blocks[0].end, 115);
  EXPECT_DOUBLE_EQ(r.blocks[1].end, 115);
}

TEST(Engine, WaitWithoutSetIsADeadlock) {
  Soc soc = round_soc();
  Trace t = trace_of({wait_flag(Pipe::MTE2, Pipe::V, 3, 77), vadd(0, 0, 0, 128)});
  try {
    run1(soc, t);
    FAIL() << "expected a deadlock";
  } catch (const SimError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("kernel.cpp:77"), std::string::npos) << m;
    EXPECT_NE(m.find("never set"), std::string::npos) << m;
  }
}

TEST(Engine, Deterministic) {
  Soc soc = load_soc("Ascend910B1");
  std::vector<TraceRecord> recs;
  for (int i = 0; i < 50; ++i) {
    recs.push_back(copy_in((i % 2) * 32768, uint64_t(i) * 32768, 32768));
    recs.push_back(set_flag(Pipe::MTE2, Pipe::V, i % 2));
    recs.push_back(wait_flag(Pipe::MTE2, Pipe::V, i % 2));
    recs.push_back(vadd(65536 + (i % 2) * 32768, (i % 2) * 32768, (i % 2) * 32768, 16384));
  }
  Trace t = trace_of(recs);
  std::vector<BlockTrace> blocks(48, BlockTrace{&t, CoreType::AIV});
  double a = simulate(soc, blocks).cycles, b = simulate(soc, blocks).cycles;
  EXPECT_EQ(a, b);
  EXPECT_GT(a, 0);
}
