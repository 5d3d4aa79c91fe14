// SetFlag/WaitFlag pairing rules, PipeBarrier, SyncAll and their trace records.
#include "memory/memory_test_support.h"

using namespace AscendC;
using memtest::CoreTest;
using memtest::records_of;

namespace {

class SyncTest : public CoreTest {};

TEST_F(SyncTest, EventPipesFollowSourceDestinationNaming) {
  EXPECT_EQ(aoc::pipes_of(HardEvent::MTE2_V).src, aoc::Pipe::MTE2);
  EXPECT_EQ(aoc::pipes_of(HardEvent::MTE2_V).dst, aoc::Pipe::V);
  EXPECT_EQ(aoc::pipes_of(HardEvent::V_MTE3).src, aoc::Pipe::V);
  EXPECT_EQ(aoc::pipes_of(HardEvent::V_MTE3).dst, aoc::Pipe::MTE3);
  EXPECT_EQ(aoc::pipes_of(HardEvent::MTE3_MTE2).src, aoc::Pipe::MTE3);
  EXPECT_EQ(aoc::pipes_of(HardEvent::MTE3_MTE2).dst, aoc::Pipe::MTE2);
  EXPECT_EQ(aoc::pipes_of(HardEvent::M_FIX).src, aoc::Pipe::M);
  EXPECT_EQ(aoc::pipes_of(HardEvent::FIX_M).dst, aoc::Pipe::M);
  EXPECT_EQ(aoc::pipes_of(HardEvent::S_MTE2).src, aoc::Pipe::S);
  EXPECT_EQ(aoc::pipes_of(HardEvent::MTE1_M).dst, aoc::Pipe::M);
  EXPECT_STREQ(aoc::hard_event_name(HardEvent::FIX_FIX), "FIX_FIX");
  // Every named event maps to two real pipes whose names spell the event.
  for (int e = 0; e < static_cast<int>(HardEvent::MAX); ++e) {
    const auto pp = aoc::pipes_of(static_cast<HardEvent>(e));
    const std::string name = std::string(aoc::pipe_name(pp.src)) + "_" + aoc::pipe_name(pp.dst);
    EXPECT_EQ(name, aoc::hard_event_name(static_cast<HardEvent>(e)));
  }
}

TEST_F(SyncTest, SetThenWaitRecordsBothSides) {
  SetFlag<HardEvent::MTE2_V>(EVENT_ID3);
  WaitFlag<HardEvent::MTE2_V>(EVENT_ID3);
  const auto sets = records_of(aoc::RecKind::SetFlag);
  const auto waits = records_of(aoc::RecKind::WaitFlag);
  ASSERT_EQ(sets.size(), 1u);
  ASSERT_EQ(waits.size(), 1u);
  EXPECT_EQ(sets[0].pipe, aoc::Pipe::MTE2);
  EXPECT_EQ(sets[0].peer, aoc::Pipe::V);
  EXPECT_EQ(sets[0].event_id, 3);
  EXPECT_FALSE(sets[0].implicit);
  EXPECT_EQ(waits[0].pipe, aoc::Pipe::MTE2);
  EXPECT_EQ(waits[0].peer, aoc::Pipe::V);
  EXPECT_EQ(waits[0].event_id, 3);
  EXPECT_EQ(std::string(sets[0].file), __FILE__);
}

TEST_F(SyncTest, TEventIdOverloadAndFetchedIdsWork) {
  TPipe pipe;
  event_t id = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3));
  SetFlag<HardEvent::V_MTE3>(id);
  WaitFlag<HardEvent::V_MTE3>(id);
  TEventID tid = pipe.AllocEventID<HardEvent::MTE3_MTE2>();
  SetFlag<HardEvent::MTE3_MTE2>(tid);
  WaitFlag<HardEvent::MTE3_MTE2>(tid);
  pipe.ReleaseEventID<HardEvent::MTE3_MTE2>(tid);
  EXPECT_EQ(records_of(aoc::RecKind::SetFlag).size(), 2u);
  EXPECT_EQ(records_of(aoc::RecKind::WaitFlag).size(), 2u);
}

TEST_F(SyncTest, WaitWithoutSetIsAnError) {
  EXPECT_KERNEL_ERROR(WaitFlag<HardEvent::MTE2_V>(0), "WaitFlag",
                      "WaitFlag<MTE2_V>(0) has no matching SetFlag: the pipe would wait forever");
}

TEST_F(SyncTest, WaitConsumesTheFlag) {
  SetFlag<HardEvent::V_MTE3>(1);
  WaitFlag<HardEvent::V_MTE3>(1);
  EXPECT_KERNEL_ERROR(WaitFlag<HardEvent::V_MTE3>(1), "WaitFlag", "has no matching SetFlag");
}

TEST_F(SyncTest, FlagsOfDifferentEventsOrIdsAreIndependent) {
  SetFlag<HardEvent::MTE2_V>(0);
  EXPECT_KERNEL_ERROR(WaitFlag<HardEvent::V_MTE2>(0), "WaitFlag", "no matching SetFlag");
  EXPECT_KERNEL_ERROR(WaitFlag<HardEvent::MTE2_V>(1), "WaitFlag", "no matching SetFlag");
  WaitFlag<HardEvent::MTE2_V>(0);
}

// Two sets before two waits are counted (the engine takes them in order:
// tests/sim/engine_test.cpp); a third wait has no set, a fourth set is refused.
TEST_F(SyncTest, SetTwiceIsCountedAndEachWaitTakesOne) {
  SetFlag<HardEvent::MTE3_V>(2);
  SetFlag<HardEvent::MTE3_V>(2);
  EXPECT_EQ(aoc::core().flags.pending(aoc::Pipe::MTE3, aoc::Pipe::V), 1u << 2);
  WaitFlag<HardEvent::MTE3_V>(2);
  WaitFlag<HardEvent::MTE3_V>(2);
  EXPECT_EQ(aoc::core().flags.pending(aoc::Pipe::MTE3, aoc::Pipe::V), 0u);
  EXPECT_KERNEL_ERROR(WaitFlag<HardEvent::MTE3_V>(2), "WaitFlag", "has no matching SetFlag");
  for (int i = 0; i < 3; ++i) SetFlag<HardEvent::MTE3_V>(2);
  EXPECT_KERNEL_ERROR(SetFlag<HardEvent::MTE3_V>(2), "SetFlag", "is set a fourth time");
}

TEST_F(SyncTest, EventIdOutOfRange) {
  EXPECT_KERNEL_ERROR(SetFlag<HardEvent::MTE2_V>(8), "SetFlag", "out of range");
  EXPECT_KERNEL_ERROR(WaitFlag<HardEvent::MTE2_V>(-1), "WaitFlag", "out of range");
}

TEST_F(SyncTest, PipeBarrierOnScalarPipeIsRejected) {
  EXPECT_KERNEL_ERROR(PipeBarrier<PIPE_S>(), "PipeBarrier", "PIPE_S");
}

TEST_F(SyncTest, PipeBarrierRecordsItsPipe) {
  PipeBarrier<PIPE_V>();
  PipeBarrier<PIPE_ALL>();
  PipeBarrier<PIPE_MTE2>();
  const auto bars = records_of(aoc::RecKind::Barrier);
  ASSERT_EQ(bars.size(), 3u);
  EXPECT_EQ(bars[0].pipe, aoc::Pipe::V);
  EXPECT_EQ(bars[1].pipe, aoc::Pipe::ALL);
  EXPECT_EQ(bars[2].pipe, aoc::Pipe::MTE2);
}

TEST_F(SyncTest, SyncAllWithoutLauncherOnOneBlockIsANoOp) {
  SyncAll();
  EXPECT_EQ(records_of(aoc::RecKind::SyncAll).size(), 1u);
}

TEST_F(SyncTest, SyncAllWithSeveralBlocksNeedsTheLauncherBarrier) {
  aoc::core().block_num = 4;
  EXPECT_KERNEL_ERROR(SyncAll(), "SyncAll", "launcher");
  int calls = 0;
  aoc::core().barrier_ctx = &calls;
  aoc::core().barrier_fn = [](void* ctx) { ++*static_cast<int*>(ctx); };
  SyncAll<false>();
  EXPECT_EQ(calls, 1);
  aoc::core().barrier_fn = nullptr;
  aoc::core().block_num = 1;
}

TEST_F(SyncTest, SoftSyncAllChecksItsWorkspaces) {
  memtest::GmBuffer<int32_t> ws(8, "sync_ws");
  TPipe pipe;
  TBuf<TPosition::VECCALC> ub;
  pipe.InitBuffer(ub, 32);
  SyncAll(ws.tensor(), ub.Get<int32_t>(), 1);
  EXPECT_EQ(records_of(aoc::RecKind::SyncAll).size(), 1u);
  // One 32 B block per core: three cores need 96 B, beyond the 64 B of the padded allocation.
  EXPECT_KERNEL_ERROR(SyncAll(ws.tensor(), ub.Get<int32_t>(), 3), "SyncAll", "out of bounds");
}

TEST_F(SyncTest, DataCacheCleanAndInvalidIsRecorded) {
  memtest::GmBuffer<float> g(16, "dcci");
  DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(g.tensor());
  DataCacheCleanAndInvalid<float, CacheLine::ENTIRE_DATA_CACHE>(g.tensor());
  const auto rs = records_of(aoc::RecKind::Scalar);
  ASSERT_EQ(rs.size(), 2u);
  EXPECT_STREQ(rs[0].op, "DataCacheCleanAndInvalid");
}

}  // namespace
