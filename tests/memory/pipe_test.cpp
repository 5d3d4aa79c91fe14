// TPipe allocation (placement, capacity, buffer count), queue state machine errors,
// TBuf views and event id allocation.
#include "memory/memory_test_support.h"

using namespace AscendC;
using memtest::CoreTest;

namespace {

class PipeTest : public CoreTest {};

TEST_F(PipeTest, BuffersArePlacedConsecutivelyWithLengthsRoundedTo32Bytes) {
  TPipe pipe;
  TQue<TPosition::VECIN, 2> in;
  TQue<TPosition::VECOUT, 1> out;
  TBuf<TPosition::VECCALC> tmp;
  pipe.InitBuffer(in, 2, 1000);  // 1000 -> 1024 B per buffer
  pipe.InitBuffer(out, 1, 33);   // 33 -> 64 B
  pipe.InitBuffer(tmp, 8);       // 8 -> 32 B
  LocalTensor<float> a = in.AllocTensor<float>();
  LocalTensor<float> b = in.AllocTensor<float>();
  LocalTensor<half> c = out.AllocTensor<half>();
  LocalTensor<uint8_t> d = tmp.Get<uint8_t>();
  EXPECT_EQ(a.GetPhyAddr(), 0u);
  EXPECT_EQ(b.GetPhyAddr(), 1024u);
  EXPECT_EQ(c.GetPhyAddr(), 2048u);
  EXPECT_EQ(d.GetPhyAddr(), 2112u);
  EXPECT_EQ(a.GetSize(), 256u);
  EXPECT_EQ(c.GetSize(), 32u);
  EXPECT_EQ(d.GetSize(), 32u);
  EXPECT_EQ(a.GetPosition(), TPosition::VECIN);
  EXPECT_EQ(pipe.aoc_used_bytes(aoc::Space::UB), 2144u);
  EXPECT_EQ(pipe.aoc_buffer_count(), 4u);
  EXPECT_EQ(GetTPipePtr(), &pipe);
}

TEST_F(PipeTest, CubePositionsAllocateInTheirOwnMemories) {
  TPipe pipe;
  TQue<TPosition::A1, 1> a1;
  TQue<TPosition::A2, 1> a2;
  TQue<TPosition::CO1, 1> co1;
  TQue<TPosition::VECIN, 1> vin;
  pipe.InitBuffer(a1, 1, 4096);
  pipe.InitBuffer(a2, 1, 100);  // L0A places at 512 B boundaries
  pipe.InitBuffer(vin, 1, 64);
  pipe.InitBuffer(co1, 1, 1024);
  EXPECT_EQ(pipe.aoc_used_bytes(aoc::Space::L1), 4096u);
  EXPECT_EQ(pipe.aoc_used_bytes(aoc::Space::L0A), 128u);
  EXPECT_EQ(pipe.aoc_used_bytes(aoc::Space::L0C), 1024u);
  EXPECT_EQ(pipe.aoc_used_bytes(aoc::Space::UB), 64u);
  EXPECT_EQ(a1.AllocTensor<half>().aoc_space(), aoc::Space::L1);
  EXPECT_EQ(co1.AllocTensor<float>().aoc_space(), aoc::Space::L0C);
}

// The device does not check the total at InitBuffer (only the CPU debug build asserts): the
// buffers get addresses past the end of UB and the first access to them faults.
TEST_F(PipeTest, UbOverflowIsReportedWhenTheBufferIsTouched) {
  TPipe pipe;
  TQue<TPosition::VECIN, 1> x;
  TQue<TPosition::VECOUT, 1> y;
  pipe.InitBuffer(x, 1, 100 * 1024);
  pipe.InitBuffer(y, 1, 100 * 1024);  // no error yet
  LocalTensor<float> t = y.AllocTensor<float>();
  Duplicate(t, 1.0f, 1024);  // the part inside UB is usable, as on the device
  try {
    Duplicate(t, 1.0f, 25600);
    FAIL() << "no overflow reported";
  } catch (const aoc::KernelError& e) {
    const std::string m = e.what();
    EXPECT_EQ(e.api(), "Duplicate");
    EXPECT_NE(m.find("UB overflow"), std::string::npos) << m;
    EXPECT_NE(m.find("204800"), std::string::npos) << m;  // total requested
    EXPECT_NE(m.find("196608"), std::string::npos) << m;  // capacity
    EXPECT_NE(m.find("TQue<VECIN> 1 x 102400 B"), std::string::npos) << m;  // the earlier call
    EXPECT_NE(m.find(std::string(__FILE__)), std::string::npos) << m;       // where InitBuffer was
  }
}

TEST_F(PipeTest, DoubleBufferedOverflowInOneCall) {
  TPipe pipe;
  TQue<TPosition::VECIN, 2> x;
  pipe.InitBuffer(x, 2, 100 * 1024);
  LocalTensor<float> first = x.AllocTensor<float>();
  LocalTensor<float> second = x.AllocTensor<float>();
  Duplicate(first, 0.0f, 25600);
  EXPECT_KERNEL_ERROR(Duplicate(second, 0.0f, 25600), "Duplicate", "204800");
}

TEST_F(PipeTest, CapacityFollowsTheCoreLimits) {
  aoc::CoreLimits small;
  small.ub_bytes = 4096;
  aoc::core().init(small);
  TPipe pipe;
  TQue<TPosition::VECIN, 1> x;
  pipe.InitBuffer(x, 1, 4096);
  TQue<TPosition::VECIN, 1> y;
  pipe.InitBuffer(y, 1, 32);
  LocalTensor<float> t = y.AllocTensor<float>();
  EXPECT_KERNEL_ERROR(Duplicate(t, 0.0f, 8), "Duplicate", "capacity is 4096 B");
  aoc::core().init(aoc::CoreLimits{});
}

TEST_F(PipeTest, MoreThan64BuffersIsAnError) {
  TPipe pipe;
  std::vector<std::unique_ptr<TQue<TPosition::VECCALC, 0>>> qs;
  for (int i = 0; i < 8; ++i) {
    qs.push_back(std::make_unique<TQue<TPosition::VECCALC, 0>>());
    pipe.InitBuffer(*qs.back(), 8, 32);
  }
  TBuf<TPosition::VECCALC> one_more;
  EXPECT_KERNEL_ERROR(pipe.InitBuffer(one_more, 32), "InitBuffer", "more than the 64 buffers");
}

TEST_F(PipeTest, InitBufferTwiceNeedsReset) {
  TPipe pipe;
  TQue<TPosition::VECIN, 1> x;
  pipe.InitBuffer(x, 1, 256);
  EXPECT_KERNEL_ERROR(pipe.InitBuffer(x, 1, 256), "InitBuffer", "called twice");
  LocalTensor<float> before = x.AllocTensor<float>();
  pipe.Reset();
  EXPECT_KERNEL_ERROR(x.AllocTensor<float>(), "AllocTensor", "not InitBuffer-ed again");
  pipe.InitBuffer(x, 1, 512);
  LocalTensor<float> after = x.AllocTensor<float>();
  EXPECT_EQ(after.GetPhyAddr(), 0u);
  EXPECT_EQ(after.GetSize(), 128u);
  // A tensor from before the Reset is stale.
  EXPECT_KERNEL_ERROR(before.GetValue(0), "LocalTensor::GetValue", "after FreeTensor");
}

TEST_F(PipeTest, QueueNeverInitialisedIsAnError) {
  TPipe pipe;
  TQue<TPosition::VECIN, 1> x;
  EXPECT_KERNEL_ERROR(x.AllocTensor<half>(), "AllocTensor", "before TPipe::InitBuffer");
  EXPECT_KERNEL_ERROR(x.DeQue<half>(), "DeQue", "before TPipe::InitBuffer");
  TBuf<> b;
  EXPECT_KERNEL_ERROR(b.Get<half>(), "TBuf::Get", "before TPipe::InitBuffer");
}

TEST_F(PipeTest, QueueOutlivingItsPipeIsDetected) {
  TQue<TPosition::VECIN, 1> x;
  {
    TPipe pipe;
    pipe.InitBuffer(x, 1, 256);
  }
  EXPECT_KERNEL_ERROR(x.AllocTensor<half>(), "AllocTensor", "no longer exists");
}

TEST_F(PipeTest, DequeOnEmptyQueue) {
  TPipe pipe;
  TQue<TPosition::VECIN, 1> x;
  pipe.InitBuffer(x, 1, 256);
  EXPECT_KERNEL_ERROR(x.DeQue<float>(), "DeQue", "empty");
}

TEST_F(PipeTest, EnqueBeyondDepth) {
  TPipe pipe;
  TQue<TPosition::VECIN, 1> x;
  pipe.InitBuffer(x, 2, 256);
  LocalTensor<float> a = x.AllocTensor<float>();
  LocalTensor<float> b = x.AllocTensor<float>();
  EXPECT_TRUE(x.VacantInQue());
  x.EnQue(a);
  EXPECT_FALSE(x.VacantInQue());
  EXPECT_KERNEL_ERROR(x.EnQue(b), "EnQue", "beyond the queue depth 1");
}

TEST_F(PipeTest, DepthZeroHasNoLimit) {
  TPipe pipe;
  TQue<TPosition::VECCALC, 0> x;
  pipe.InitBuffer(x, 3, 64);
  for (int i = 0; i < 3; ++i) x.EnQue(x.AllocTensor<int32_t>());
  EXPECT_EQ(x.GetTensorCountInQue(), 3);
  EXPECT_TRUE(x.HasTensorInQue());
}

TEST_F(PipeTest, AllocWithNoFreeBufferWouldDeadlock) {
  TPipe pipe;
  TQue<TPosition::VECIN, 2> x;
  pipe.InitBuffer(x, 2, 256);
  LocalTensor<float> a = x.AllocTensor<float>();
  x.AllocTensor<float>();
  EXPECT_FALSE(x.HasIdleBuffer());
  EXPECT_KERNEL_ERROR(x.AllocTensor<float>(), "AllocTensor", "would deadlock");
  x.FreeTensor(a);
  EXPECT_TRUE(x.HasIdleBuffer());
  LocalTensor<float> again = x.AllocTensor<float>();
  EXPECT_EQ(again.GetPhyAddr(), a.GetPhyAddr());
}

TEST_F(PipeTest, FreeTwiceAndForeignFree) {
  TPipe pipe;
  TQue<TPosition::VECIN, 1> x;
  TQue<TPosition::VECOUT, 1> y;
  pipe.InitBuffer(x, 1, 256);
  pipe.InitBuffer(y, 1, 256);
  LocalTensor<half> a = x.AllocTensor<half>();
  LocalTensor<half> b = y.AllocTensor<half>();
  EXPECT_KERNEL_ERROR(x.FreeTensor(b), "FreeTensor", "not allocated from this TQue<VECIN>");
  x.FreeTensor(a);
  EXPECT_KERNEL_ERROR(x.FreeTensor(a), "FreeTensor", "freed twice");
  LocalTensor<half> never;
  EXPECT_KERNEL_ERROR(x.FreeTensor(never), "FreeTensor", "not allocated from this");
}

TEST_F(PipeTest, FreeOfAnEnqueuedTensorIsAnError) {
  TPipe pipe;
  TQue<TPosition::VECIN, 1> x;
  pipe.InitBuffer(x, 1, 256);
  LocalTensor<half> a = x.AllocTensor<half>();
  x.EnQue(a);
  EXPECT_KERNEL_ERROR(x.FreeTensor(a), "FreeTensor", "still in the queue");
}

TEST_F(PipeTest, UseAfterFreeTensorIsDetected) {
  TPipe pipe;
  TQue<TPosition::VECIN, 1> x;
  pipe.InitBuffer(x, 1, 256);
  LocalTensor<float> a = x.AllocTensor<float>();
  a.SetValue(0, 1.5f);
  x.EnQue(a);
  LocalTensor<float> b = x.DeQue<float>();
  EXPECT_EQ(b.GetValue(0), 1.5f);
  x.FreeTensor(b);
  EXPECT_KERNEL_ERROR(b.GetValue(0), "LocalTensor::GetValue", "after FreeTensor");
  EXPECT_KERNEL_ERROR(a.SetValue(1, 2.0f), "LocalTensor::SetValue", "after FreeTensor");
  // Reallocation does not revive the stale handle.
  LocalTensor<float> c = x.AllocTensor<float>();
  c.SetValue(0, 3.0f);
  EXPECT_KERNEL_ERROR(b.GetValue(0), "LocalTensor::GetValue", "after FreeTensor");
}

TEST_F(PipeTest, EnqueOfFreedOrForeignTensor) {
  TPipe pipe;
  TQue<TPosition::VECIN, 2> x;
  TBuf<> tb;
  pipe.InitBuffer(x, 2, 256);
  pipe.InitBuffer(tb, 256);
  EXPECT_KERNEL_ERROR(x.EnQue(tb.Get<half>()), "EnQue", "not allocated from this");
  LocalTensor<half> a = x.AllocTensor<half>();
  x.FreeTensor(a);
  EXPECT_KERNEL_ERROR(x.EnQue(a), "EnQue", "already freed");
}

TEST_F(PipeTest, DequeReturnsTheEnqueuedTensorsInOrder) {
  TPipe pipe;
  TQue<TPosition::VECIN, 2> x;
  pipe.InitBuffer(x, 2, 128);
  LocalTensor<int32_t> a = x.AllocTensor<int32_t>();
  LocalTensor<int32_t> b = x.AllocTensor<int32_t>();
  a.SetValue(0, 11);
  b.SetValue(0, 22);
  x.EnQue(a);
  x.EnQue(b);
  LocalTensor<int32_t> first;
  x.DeQue(first);
  LocalTensor<int32_t> second = x.DeQue<int32_t>();
  EXPECT_EQ(first.GetValue(0), 11);
  EXPECT_EQ(second.GetValue(0), 22);
  EXPECT_EQ(second.GetSize(), 32u);
}

TEST_F(PipeTest, InPlaceAllocTensorForm) {
  TPipe pipe;
  TQue<TPosition::VECOUT, 1> y;
  pipe.InitBuffer(y, 1, 96);
  LocalTensor<half> t;
  y.AllocTensor(t);
  EXPECT_EQ(t.GetSize(), 48u);
}

TEST_F(PipeTest, TBufViews) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> tb;
  pipe.InitBuffer(tb, 1024);
  EXPECT_EQ(tb.Get<float>().GetSize(), 256u);
  EXPECT_EQ(tb.Get<float>(100).GetSize(), 100u);
  LocalTensor<half> w = tb.GetWithOffset<half>(64, 256);
  EXPECT_EQ(w.GetPhyAddr(), 256u);
  EXPECT_EQ(w.GetSize(), 64u);
  EXPECT_KERNEL_ERROR(tb.Get<float>(257), "TBuf::Get", "1028 B");
  EXPECT_KERNEL_ERROR(tb.GetWithOffset<half>(400, 256), "TBuf::GetWithOffset", "exceeds");
  EXPECT_KERNEL_ERROR(tb.GetWithOffset<half>(4, 20), "TBuf::GetWithOffset", "not 32-byte aligned");
}

TEST_F(PipeTest, EventIdAllocation) {
  TPipe pipe;
  std::vector<TEventID> ids;
  for (int i = 0; i < 8; ++i) ids.push_back(pipe.AllocEventID<HardEvent::V_MTE2>());
  for (int i = 0; i < 8; ++i) EXPECT_EQ(ids[i], i);
  EXPECT_KERNEL_ERROR(pipe.AllocEventID<HardEvent::V_MTE2>(), "AllocEventID", "are allocated");
  EXPECT_KERNEL_ERROR(pipe.FetchEventID<HardEvent::V_MTE2>(), "FetchEventID", "are allocated");
  pipe.ReleaseEventID<HardEvent::V_MTE2>(ids[5]);
  EXPECT_EQ(pipe.FetchEventID<HardEvent::V_MTE2>(), 5);
  EXPECT_EQ(pipe.FetchEventID(HardEvent::V_MTE2), 5);  // borrowed, not reserved
  EXPECT_EQ(pipe.AllocEventID<HardEvent::V_MTE2>(), 5);
  EXPECT_EQ(pipe.AllocEventID<HardEvent::MTE2_V>(), 0);  // other events have their own ids
  EXPECT_KERNEL_ERROR(pipe.ReleaseEventID<HardEvent::MTE3_V>(3), "ReleaseEventID", "was not allocated");
}

TEST_F(PipeTest, DestroyedPipeNeedsInit) {
  TPipe pipe;
  TQue<TPosition::VECIN, 1> x;
  pipe.Destroy();
  EXPECT_KERNEL_ERROR(pipe.InitBuffer(x, 1, 64), "InitBuffer", "destroyed");
  pipe.Init();
  pipe.InitBuffer(x, 1, 64);
  EXPECT_EQ(x.AllocTensor<half>().GetSize(), 32u);
}

}  // namespace
