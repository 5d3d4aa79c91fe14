// A vector add kernel written as production AscendC code (TPipe + double-buffered
// TQue pipeline), called directly on one core. The element-wise add is done with
// GetValue/SetValue so this test depends only on the memory framework.
#include "memory/memory_test_support.h"

#include <map>
#include <tuple>

using namespace AscendC;

namespace {

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelAdd {
 public:
  __aicore__ inline KernelAdd() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t tileNum) {
    blockLength = totalLength / GetBlockNum();
    this->tileNum = tileNum;
    tileLength = blockLength / tileNum / BUFFER_NUM;
    xGm.SetGlobalBuffer((__gm__ T*)x + blockLength * GetBlockIdx(), blockLength);
    yGm.SetGlobalBuffer((__gm__ T*)y + blockLength * GetBlockIdx(), blockLength);
    zGm.SetGlobalBuffer((__gm__ T*)z + blockLength * GetBlockIdx(), blockLength);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(T));
    pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(T));
    pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(T));
  }
  __aicore__ inline void Process() {
    int32_t loopCount = tileNum * BUFFER_NUM;
    for (int32_t i = 0; i < loopCount; i++) {
      CopyIn(i);
      Compute(i);
      CopyOut(i);
    }
  }

 private:
  __aicore__ inline void CopyIn(int32_t progress) {
    LocalTensor<T> xLocal = inQueueX.template AllocTensor<T>();
    LocalTensor<T> yLocal = inQueueY.template AllocTensor<T>();
    DataCopy(xLocal, xGm[progress * tileLength], tileLength);
    DataCopy(yLocal, yGm[progress * tileLength], tileLength);
    inQueueX.EnQue(xLocal);
    inQueueY.EnQue(yLocal);
  }
  __aicore__ inline void Compute(int32_t progress) {
    LocalTensor<T> xLocal = inQueueX.template DeQue<T>();
    LocalTensor<T> yLocal = inQueueY.template DeQue<T>();
    LocalTensor<T> zLocal = outQueueZ.template AllocTensor<T>();
    for (uint32_t k = 0; k < tileLength; ++k) zLocal.SetValue(k, T(xLocal.GetValue(k) + yLocal.GetValue(k)));
    outQueueZ.template EnQue<T>(zLocal);
    inQueueX.FreeTensor(xLocal);
    inQueueY.FreeTensor(yLocal);
  }
  __aicore__ inline void CopyOut(int32_t progress) {
    LocalTensor<T> zLocal = outQueueZ.template DeQue<T>();
    DataCopy(zGm[progress * tileLength], zLocal, tileLength);
    outQueueZ.FreeTensor(zLocal);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
  GlobalTensor<T> xGm, yGm, zGm;
  uint32_t blockLength = 0;
  uint32_t tileNum = 0;
  uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total, uint32_t tiles) {
  KernelAdd<half> op;
  op.Init(x, y, z, total, tiles);
  op.Process();
}

class AddKernelTest : public memtest::CoreTest {};

// Replays the implicit events as the timing engine would pair them: every wait
// must find an earlier set of the same (source, destination, id).
void expect_implicit_events_pair_up() {
  std::map<std::tuple<int, int, int>, int> pending;
  int sets = 0, waits = 0;
  for (const aoc::TraceRecord& r : aoc::core().trace.records) {
    if (!r.implicit) continue;
    auto key = std::make_tuple(int(r.pipe), int(r.peer), int(r.event_id));
    if (r.kind == aoc::RecKind::SetFlag) {
      EXPECT_EQ(pending[key], 0) << "set twice: " << r.op << " line " << r.line;
      pending[key]++;
      ++sets;
    } else if (r.kind == aoc::RecKind::WaitFlag) {
      EXPECT_EQ(pending[key], 1) << "wait without set: " << r.op << " line " << r.line;
      pending[key]--;
      ++waits;
    }
  }
  EXPECT_GT(sets, 0);
  EXPECT_GT(waits, 0);
}

TEST_F(AddKernelTest, DoubleBufferedPipelineGivesCorrectSums) {
  const uint32_t total = 8 * 2 * 512;
  memtest::GmBuffer<half> x(total, "x"), y(total, "y"), z(total, "z");
  for (uint32_t i = 0; i < total; ++i) {
    x.data[i] = half(float(i % 97) * 0.25f);
    y.data[i] = half(float(i % 13) - 6.0f);
  }
  add_custom(x.addr(), y.addr(), z.addr(), total, 8);
  for (uint32_t i = 0; i < total; ++i) {
    const float expect = float(half(float(i % 97) * 0.25f + (float(i % 13) - 6.0f)));
    ASSERT_EQ(float(z.data[i]), expect) << i;
  }
  // 16 tiles: two MTE2 loads and one MTE3 store each, 1 KiB per copy.
  int mte2 = 0, mte3 = 0;
  for (const aoc::TraceRecord& r : memtest::records_of(aoc::RecKind::Copy)) {
    EXPECT_EQ(r.bytes, 1024u);
    mte2 += r.pipe == aoc::Pipe::MTE2;
    mte3 += r.pipe == aoc::Pipe::MTE3;
  }
  EXPECT_EQ(mte2, 32);
  EXPECT_EQ(mte3, 16);
  expect_implicit_events_pair_up();
  // The kernel's pipe is gone after the call.
  EXPECT_EQ(GetTPipePtr(), nullptr);
}

TEST_F(AddKernelTest, TileTooLargeForUbFaultsAtTheFirstAccess) {
  const uint32_t total = 2 * 2 * 40000;  // 3 queues x 2 buffers x 80000 B > 192 KiB
  memtest::GmBuffer<half> x(total, "x"), y(total, "y"), z(total, "z");
  try {
    add_custom(x.addr(), y.addr(), z.addr(), total, 2);
    FAIL() << "no UB overflow reported";
  } catch (const aoc::KernelError& e) {
    // InitBuffer does not check on the device; the first copy into a buffer past UB faults.
    EXPECT_EQ(e.api(), "DataCopy");
    EXPECT_EQ(e.file(), std::string(__FILE__));
    EXPECT_NE(std::string(e.what()).find("UB overflow"), std::string::npos) << e.what();
  }
}

}  // namespace
