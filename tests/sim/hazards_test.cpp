#include <gtest/gtest.h>

#include "sim/hazards.h"
#include "sim_test_util.h"

using namespace aoc;
using namespace aoc::sim;
using namespace simtest;

namespace {

TraceRecord get_value(uint64_t addr, uint32_t line) {
  auto r = scalar(1, line, "GetValue");
  r.nreads = 1;
  r.reads[0] = ub(addr, addr + 2);
  return r;
}

// A double-buffered copy-in / add / copy-out loop with the flags TQue would insert.
std::vector<TraceRecord> double_buffered(int iters, bool drop_free_wait) {
  std::vector<TraceRecord> recs;
  for (int i = 0; i < iters; ++i) {
    uint8_t b = uint8_t(i % 2);
    uint64_t in = b * 4096, out = 16384 + b * 4096;
    if (i >= 2 && !drop_free_wait) recs.push_back(wait_flag(Pipe::V, Pipe::MTE2, b, 100, true));
    recs.push_back(copy_in(in, 1 << 20, 2048, 101));
    recs.push_back(set_flag(Pipe::MTE2, Pipe::V, b, 102, true));
    recs.push_back(wait_flag(Pipe::MTE2, Pipe::V, b, 103, true));
    if (i >= 2) recs.push_back(wait_flag(Pipe::MTE3, Pipe::V, b, 104, true));
    recs.push_back(vadd(out, in, in + 1024, 512, 105));
    recs.push_back(set_flag(Pipe::V, Pipe::MTE2, b, 106, true));
    recs.push_back(set_flag(Pipe::V, Pipe::MTE3, b, 107, true));
    recs.push_back(wait_flag(Pipe::V, Pipe::MTE3, b, 108, true));
    recs.push_back(copy_out(2 << 20, out, 1024, 109));
    recs.push_back(set_flag(Pipe::MTE3, Pipe::V, b, 110, true));
  }
  return recs;
}

}  // namespace

TEST(Hazards, CopyThenComputeWithoutSyncIsARace) {
  Trace t = trace_of({copy_in(0, 4096, 1024, 11), vadd(2048, 0, 512, 256, 12)});
  auto hs = check_hazards(t);
  ASSERT_EQ(hs.size(), 1u);
  EXPECT_EQ(hs[0].kind, HazardKind::Race);
  EXPECT_EQ(hs[0].first.line, 11u);
  EXPECT_EQ(hs[0].second.line, 12u);
  EXPECT_EQ(hs[0].lo, 0u);
  EXPECT_EQ(hs[0].hi, 512u);  // one report per pair of call sites: the first overlapping operand
  std::string m = hs[0].message();
  EXPECT_NE(m.find("kernel.cpp:11 DataCopy (pipe MTE2, write)"), std::string::npos) << m;
  EXPECT_NE(m.find("kernel.cpp:12 Add (pipe V, read)"), std::string::npos) << m;
}

TEST(Hazards, FlagPairOrdersThem) {
  Trace t = trace_of({copy_in(0, 4096, 1024, 11), set_flag(Pipe::MTE2, Pipe::V, 0), wait_flag(Pipe::MTE2, Pipe::V, 0),
                      vadd(2048, 0, 512, 256, 12)});
  EXPECT_TRUE(check_hazards(t).empty());
}

TEST(Hazards, DisjointRangesAndReadReadAreClean) {
  Trace t = trace_of({copy_in(0, 4096, 1024), vadd(4096, 2048, 3072, 256), copy_out(0, 2048, 512)});
  EXPECT_TRUE(check_hazards(t).empty());
}

TEST(Hazards, DoubleBufferedPipelineIsClean) {
  Trace t = trace_of(double_buffered(8, false));
  auto hs = check_hazards(t);
  for (const auto& h : hs) ADD_FAILURE() << h.message();
  EXPECT_TRUE(hs.empty());
}

TEST(Hazards, MissingBufferFreeWaitIsAWriteAfterRead) {
  Trace t = trace_of(double_buffered(4, true));
  auto hs = check_hazards(t);
  ASSERT_FALSE(hs.empty());
  EXPECT_EQ(hs[0].first.line, 105u);   // Add reads the buffer...
  EXPECT_EQ(hs[0].second.line, 101u);  // ...that the copy two iterations later overwrites
  EXPECT_TRUE(hs[0].second.write);
}

TEST(Hazards, WaitWithoutSet) {
  Trace t = trace_of({wait_flag(Pipe::MTE2, Pipe::V, 2, 33), vadd(0, 512, 1024, 128)});
  auto hs = check_hazards(t);
  ASSERT_EQ(hs.size(), 1u);
  EXPECT_EQ(hs[0].kind, HazardKind::WaitWithoutSet);
  EXPECT_NE(hs[0].message().find("kernel.cpp:33"), std::string::npos);
}

TEST(Hazards, ScalarReadOfVectorResult) {
  Trace racy = trace_of({vadd(0, 512, 1024, 128, 21), get_value(64, 22)});
  auto hs = check_hazards(racy);
  ASSERT_EQ(hs.size(), 1u);
  EXPECT_EQ(hs[0].kind, HazardKind::ScalarReadRace);
  EXPECT_EQ(hs[0].second.line, 22u);
  Trace synced = trace_of({vadd(0, 512, 1024, 128, 21), set_flag(Pipe::V, Pipe::S, 0), wait_flag(Pipe::V, Pipe::S, 0),
                           get_value(64, 22)});
  EXPECT_TRUE(check_hazards(synced).empty());
}

TEST(Hazards, BarrierAllOrdersEverything) {
  Trace t = trace_of({copy_in(0, 4096, 1024, 11), barrier(Pipe::ALL), vadd(2048, 0, 512, 256, 12),
                      barrier(Pipe::ALL), copy_out(0, 2048, 512)});
  EXPECT_TRUE(check_hazards(t).empty());
}

TEST(Hazards, PipeBarrierDoesNotOrderOtherPipes) {
  Trace t = trace_of({copy_in(0, 4096, 1024, 11), barrier(Pipe::V), vadd(2048, 0, 512, 256, 12)});
  EXPECT_EQ(check_hazards(t).size(), 1u);
}

TEST(Hazards, ScalarWorkBeforeIssueIsOrdered) {
  // A SetValue on S happens before a later vector op reads it: the scalar unit issues in order.
  auto sv = scalar(1, 5, "SetValue");
  sv.has_write = true;
  sv.write = ub(0, 2);
  Trace t = trace_of({sv, vadd(2048, 0, 512, 256, 12)});
  EXPECT_TRUE(check_hazards(t).empty());
}

TEST(Hazards, DeduplicatedAcrossBlocks) {
  Trace t = trace_of({copy_in(0, 4096, 1024, 11), vadd(2048, 0, 512, 256, 12)});
  auto hs = check_hazards(std::vector<const Trace*>{&t, &t, &t});
  EXPECT_EQ(hs.size(), 1u);
}

namespace {

// A long double-buffered loop (enough accesses for the checker to prune its lists) whose scalar
// unit reads the UB once before the loop and then only runs loop control, never waiting for
// another pipe, as in most TQue kernels; before the loop a vector op writes a UB region nothing
// else touches (line 202); `tail` is appended after the loop.
Trace scalar_unsynced_loop(std::vector<TraceRecord> tail) {
  std::vector<TraceRecord> recs = {get_value(30000, 200), vadd(40000, 50000, 52000, 512, 202)};
  for (const auto& r : double_buffered(400, false)) {
    recs.push_back(r);
    if (r.line == 110) recs.push_back(scalar(4, 201));  // the loop's own scalar work
  }
  recs.insert(recs.end(), tail.begin(), tail.end());
  return trace_of(recs);
}

}  // namespace

// Pruning must look only at the pipes that still access the space: the scalar unit's ignorance
// of the other pipes (it never waits) no longer keeps every access, and what it drops can race
// with nothing later. A race at the end of the loop is still found against the right access.
TEST(Hazards, AScalarUnitThatNeverWaitsHidesNoRaceAndKeepsNothingNeeded) {
  EXPECT_TRUE(check_hazards(scalar_unsynced_loop({})).empty());

  // A copy into buffer 0 that does not wait for the vector pipe to free it: the last vector
  // op reading buffer 0 (iteration 398, line 105) races with it.
  auto late = check_hazards(scalar_unsynced_loop({copy_in(0, 1 << 22, 1024, 300)}));
  ASSERT_EQ(late.size(), 1u);
  EXPECT_EQ(late[0].kind, HazardKind::Race);
  EXPECT_EQ(late[0].first.line, 105u);
  EXPECT_EQ(late[0].second.line, 300u);

  // The scalar unit reading, after the loop and without a wait, what the vector op wrote before
  // it: every other pipe is ordered after that write long before, but the scalar unit still has
  // this access ahead and knows nothing of the vector pipe, so the write is kept and the race found.
  auto scalar_late = check_hazards(scalar_unsynced_loop({get_value(40000, 301)}));
  ASSERT_EQ(scalar_late.size(), 1u);
  EXPECT_EQ(scalar_late[0].kind, HazardKind::ScalarReadRace);
  EXPECT_EQ(scalar_late[0].first.line, 202u);
  EXPECT_EQ(scalar_late[0].second.line, 301u);
}
