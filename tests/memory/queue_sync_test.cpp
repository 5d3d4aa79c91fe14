// The implicit synchronisation the TQue framework leaves in the trace: one event per
// buffer, on the pipe pair the queue position implies.
#include "memory/memory_test_support.h"

using namespace AscendC;
using memtest::CoreTest;
using memtest::records_of;

namespace {

class QueueSyncTest : public CoreTest {};

struct Flag {
  aoc::RecKind kind;
  aoc::Pipe src, dst;
  uint8_t id;
  std::string op;
};

std::vector<Flag> implicit_flags() {
  std::vector<Flag> out;
  for (const aoc::TraceRecord& r : aoc::core().trace.records)
    if ((r.kind == aoc::RecKind::SetFlag || r.kind == aoc::RecKind::WaitFlag) && r.implicit)
      out.push_back({r.kind, r.pipe, r.peer, r.event_id, r.op});
  return out;
}

template <TPosition pos>
void full_cycle_twice() {
  TPipe pipe;
  TQue<pos, 1> q;
  pipe.InitBuffer(q, 1, 512);
  for (int i = 0; i < 2; ++i) {
    LocalTensor<half> t = q.template AllocTensor<half>();
    q.EnQue(t);
    LocalTensor<half> u = q.template DeQue<half>();
    q.FreeTensor(u);
  }
}

// Expected sequence for one buffer cycled twice: EnQue set, DeQue wait, Free set, then
// the second Alloc waits for the free, and so on.
void expect_cycle(aoc::Pipe producer, aoc::Pipe consumer) {
  const auto f = implicit_flags();
  ASSERT_EQ(f.size(), 7u);
  const uint8_t id = aoc::kImplicitEventBase;
  const std::vector<Flag> want = {
      {aoc::RecKind::SetFlag, producer, consumer, id, "EnQue"},
      {aoc::RecKind::WaitFlag, producer, consumer, id, "DeQue"},
      {aoc::RecKind::SetFlag, consumer, producer, id, "FreeTensor"},
      {aoc::RecKind::WaitFlag, consumer, producer, id, "AllocTensor"},
      {aoc::RecKind::SetFlag, producer, consumer, id, "EnQue"},
      {aoc::RecKind::WaitFlag, producer, consumer, id, "DeQue"},
      {aoc::RecKind::SetFlag, consumer, producer, id, "FreeTensor"},
  };
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(f[i].kind, want[i].kind) << i;
    EXPECT_EQ(f[i].src, want[i].src) << i;
    EXPECT_EQ(f[i].dst, want[i].dst) << i;
    EXPECT_EQ(f[i].id, want[i].id) << i;
    EXPECT_EQ(f[i].op, want[i].op) << i;
  }
}

TEST_F(QueueSyncTest, VecinIsMte2ToVector) {
  full_cycle_twice<TPosition::VECIN>();
  expect_cycle(aoc::Pipe::MTE2, aoc::Pipe::V);
}

TEST_F(QueueSyncTest, VecoutIsVectorToMte3) {
  full_cycle_twice<TPosition::VECOUT>();
  expect_cycle(aoc::Pipe::V, aoc::Pipe::MTE3);
}

TEST_F(QueueSyncTest, A1AndB1AreMte2ToMte1) {
  full_cycle_twice<TPosition::A1>();
  expect_cycle(aoc::Pipe::MTE2, aoc::Pipe::MTE1);
  aoc::core().trace.records.clear();
  full_cycle_twice<TPosition::B1>();
  expect_cycle(aoc::Pipe::MTE2, aoc::Pipe::MTE1);
}

TEST_F(QueueSyncTest, A2AndB2AreMte1ToCube) {
  full_cycle_twice<TPosition::A2>();
  expect_cycle(aoc::Pipe::MTE1, aoc::Pipe::M);
  aoc::core().trace.records.clear();
  full_cycle_twice<TPosition::B2>();
  expect_cycle(aoc::Pipe::MTE1, aoc::Pipe::M);
}

TEST_F(QueueSyncTest, Co1IsCubeToFixpipe) {
  full_cycle_twice<TPosition::CO1>();
  expect_cycle(aoc::Pipe::M, aoc::Pipe::FIX);
}

TEST_F(QueueSyncTest, VeccalcNeedsNoEvents) {
  full_cycle_twice<TPosition::VECCALC>();
  EXPECT_TRUE(implicit_flags().empty());
}

TEST_F(QueueSyncTest, FirstAllocOfABufferWaitsForNothing) {
  TPipe pipe;
  TQue<TPosition::VECIN, 2> q;
  pipe.InitBuffer(q, 2, 256);
  q.AllocTensor<float>();
  q.AllocTensor<float>();
  EXPECT_TRUE(implicit_flags().empty());
}

TEST_F(QueueSyncTest, EachBufferHasItsOwnEventId) {
  TPipe pipe;
  TQue<TPosition::VECIN, 2> in;
  TQue<TPosition::VECOUT, 2> out;
  pipe.InitBuffer(in, 2, 256);
  pipe.InitBuffer(out, 2, 256);
  LocalTensor<float> a = in.AllocTensor<float>();
  LocalTensor<float> b = in.AllocTensor<float>();
  in.EnQue(a);
  in.EnQue(b);
  LocalTensor<float> c = out.AllocTensor<float>();
  out.EnQue(c);
  const auto f = implicit_flags();
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].id, aoc::kImplicitEventBase + 0);
  EXPECT_EQ(f[1].id, aoc::kImplicitEventBase + 1);
  EXPECT_EQ(f[2].id, aoc::kImplicitEventBase + 2);  // first buffer of the second queue
  EXPECT_EQ(f[2].src, aoc::Pipe::V);
}

TEST_F(QueueSyncTest, BindVecinToVecoutIsMte2ToMte3) {
  TPipe pipe;
  TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> q;
  pipe.InitBuffer(q, 1, 256);
  LocalTensor<half> t = q.AllocTensor<half>();
  EXPECT_EQ(t.aoc_space(), aoc::Space::UB);
  q.EnQue(t);
  q.FreeTensor(q.DeQue<half>());
  const auto f = implicit_flags();
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].src, aoc::Pipe::MTE2);
  EXPECT_EQ(f[0].dst, aoc::Pipe::MTE3);
  EXPECT_EQ(f[2].src, aoc::Pipe::MTE3);
  EXPECT_EQ(f[2].dst, aoc::Pipe::MTE2);
}

TEST_F(QueueSyncTest, ExplicitUserPositionsChooseThePipes) {
  TPipe pipe;
  TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> q;
  pipe.InitBuffer(q, 1, 256);
  LocalTensor<half> t = q.AllocTensor<half>();
  q.EnQue<TPosition::GM, TPosition::VECIN, half>(t);
  q.DeQue<TPosition::GM, TPosition::VECIN, half>();
  const auto f = implicit_flags();
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].src, aoc::Pipe::MTE2);
  EXPECT_EQ(f[0].dst, aoc::Pipe::V);
  EXPECT_EQ(f[1].kind, aoc::RecKind::WaitFlag);
}

TEST_F(QueueSyncTest, FreeAllEventConsumesPendingFrees) {
  TPipe pipe;
  TQue<TPosition::VECOUT, 1> q;
  pipe.InitBuffer(q, 1, 256);
  q.FreeTensor(q.AllocTensor<half>());
  q.FreeAllEvent();
  const auto f = implicit_flags();
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[1].kind, aoc::RecKind::WaitFlag);
  EXPECT_EQ(f[1].src, aoc::Pipe::MTE3);
  EXPECT_EQ(f[1].dst, aoc::Pipe::V);
  // The next allocation has nothing left to wait for.
  q.AllocTensor<half>();
  EXPECT_EQ(implicit_flags().size(), 2u);
}

TEST_F(QueueSyncTest, ImplicitEventsDoNotTouchExplicitFlagState) {
  TPipe pipe;
  TQue<TPosition::VECIN, 1> q;
  pipe.InitBuffer(q, 1, 256);
  q.EnQue(q.AllocTensor<half>());
  EXPECT_KERNEL_ERROR(WaitFlag<HardEvent::MTE2_V>(0), "WaitFlag", "no matching SetFlag");
}

}  // namespace
