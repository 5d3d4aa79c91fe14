// SoftMax family (SoftMax, SimpleSoftMax, LogSoftMax, SoftmaxFlash, SoftmaxFlashV2)
// against a double-precision row-wise reference; padded columns, mixed half/float
// statistics, flash updates, tiling helpers, scratch errors and traces.
#include "adv/adv_test_util.h"
#include "tiling/tiling_api.h"

namespace {

using namespace advtest;
using AscendC::LocalTensor;
using AscendC::SoftMaxShapeInfo;

struct RowRef {
  double max, sum;
};

// Reference statistics of row r over its first oriK columns.
template <typename T> RowRef row_ref(const LocalTensor<T>& x, uint32_t r, uint32_t k, uint32_t oriK) {
  RowRef ref{-INFINITY, 0};
  for (uint32_t j = 0; j < oriK; ++j) ref.max = std::max(ref.max, at(x, r * k + j));
  for (uint32_t j = 0; j < oriK; ++j) ref.sum += std::exp(at(x, r * k + j) - ref.max);
  return ref;
}

template <typename T> AscendC::tiling::SoftMaxTiling host_tiling(uint32_t m, uint32_t k, uint32_t statSize,
                                                                 uint32_t& workBytes) {
  AscendC::tiling::SoftMaxTiling t;
  workBytes = AscendC::GetSoftMaxMinTmpSize(ge::Shape({m, k}), statSize, false);
  AscendC::SoftMaxTilingFunc(ge::Shape({m, k}), statSize, workBytes, t);
  return t;
}

class Softmax : public AdvTest {
 protected:
  template <typename T, typename U> void check_softmax(uint32_t m, uint32_t k, uint32_t oriK) {
    constexpr uint32_t outK = 32 / sizeof(U);
    LocalTensor<T> x = ub<T>(m * k), y = ub<T>(m * k);
    LocalTensor<U> sum = ub<U>(m * outK), max = ub<U>(m * outK);
    std::vector<double> in = ramp(m * k, -6, 6);
    // Padding holds values that would dominate the row if they were not ignored.
    for (uint32_t r = 0; r < m; ++r) {
      for (uint32_t j = oriK; j < k; ++j) in[r * k + j] = 50.0;
    }
    fill(x, in);
    uint32_t work = 0;
    const auto tiling = host_tiling<T>(m, k, sizeof(U), work);
    LocalTensor<uint8_t> tmp = ub<uint8_t>(work);
    AscendC::SoftMax<T>(y, sum, max, x, tmp, tiling, SoftMaxShapeInfo{m, k, m, oriK});
    for (uint32_t r = 0; r < m; ++r) {
      const RowRef ref = row_ref(x, r, k, oriK);
      for (uint32_t j = 0; j < outK; ++j) {
        EXPECT_TRUE(close(at(max, r * outK + j), ref.max, rtol<U>(), 0)) << r;
        EXPECT_TRUE(close(at(sum, r * outK + j), ref.sum, rtol<U>(), 0)) << r;
      }
      double total = 0;
      for (uint32_t j = 0; j < oriK; ++j) {
        const double want = std::exp(at(x, r * k + j) - ref.max) / ref.sum;
        EXPECT_TRUE(close(at(y, r * k + j), want, rtol<T>(), 1e-7)) << r << "," << j;
        total += at(y, r * k + j);
      }
      EXPECT_NEAR(total, 1.0, 20 * rtol<T>());
      for (uint32_t j = oriK; j < k; ++j) EXPECT_EQ(at(y, r * k + j), 0.0) << "pad " << r << "," << j;
    }
  }
};

TEST_F(Softmax, FloatRows) { check_softmax<float, float>(8, 64, 64); }
TEST_F(Softmax, HalfWithHalfStatistics) { check_softmax<half, half>(8, 64, 64); }
TEST_F(Softmax, HalfWithFloatStatistics) { check_softmax<half, float>(6, 128, 128); }
TEST_F(Softmax, PaddedColumnsAreIgnored) {
  check_softmax<float, float>(4, 32, 20);
  check_softmax<half, float>(3, 48, 33);
}

TEST_F(Softmax, NoTmpAndDstOnlyForms) {
  const uint32_t m = 4, k = 64;
  LocalTensor<float> x = ub<float>(m * k), y1 = ub<float>(m * k), y2 = ub<float>(m * k);
  fill(x, ramp(m * k, -3, 3));
  uint32_t work = 0;
  const auto tiling = host_tiling<float>(m, k, 4, work);
  AscendC::SoftMax<float>(y1, x, tiling);
  LocalTensor<uint8_t> tmp = ub<uint8_t>(work);
  AscendC::SoftMax<float>(y2, x, tmp, tiling);
  for (uint32_t i = 0; i < m * k; ++i) EXPECT_EQ(at(y1, i), at(y2, i));
  const RowRef ref = row_ref(x, 2, k, k);
  EXPECT_TRUE(close(at(y1, 2 * k + 5), std::exp(at(x, 2 * k + 5) - ref.max) / ref.sum, 2e-5, 0));
}

TEST_F(Softmax, SimpleSoftMaxReusesStatistics) {
  const uint32_t m = 4, k = 64;
  LocalTensor<float> x = ub<float>(m * k), y = ub<float>(m * k), y2 = ub<float>(m * k);
  LocalTensor<float> sum = ub<float>(m * 8), max = ub<float>(m * 8);
  fill(x, ramp(m * k, -5, 5));
  uint32_t work = 0;
  const auto tiling = host_tiling<float>(m, k, 4, work);
  AscendC::SoftMax<float>(y, sum, max, x, tiling);
  AscendC::SimpleSoftMax<float>(y2, sum, max, x, tiling);
  for (uint32_t i = 0; i < m * k; ++i) EXPECT_TRUE(close(at(y2, i), at(y, i), 1e-6, 0)) << i;
}

TEST_F(Softmax, LogSoftMax) {
  const uint32_t m = 5, k = 32;
  LocalTensor<float> x = ub<float>(m * k), y = ub<float>(m * k);
  LocalTensor<float> sum = ub<float>(m * 8), max = ub<float>(m * 8);
  fill(x, ramp(m * k, -20, 20));
  AscendC::tiling::LogSoftMaxTiling t;
  const uint32_t work = AscendC::GetLogSoftMaxMaxTmpSize(ge::Shape({m, k}), 4, false);
  AscendC::LogSoftMaxTilingFunc(ge::Shape({m, k}), 4, work, t);
  LocalTensor<uint8_t> tmp = ub<uint8_t>(work);
  AscendC::LogSoftMax<float>(y, sum, max, x, tmp, t);
  for (uint32_t r = 0; r < m; ++r) {
    const RowRef ref = row_ref(x, r, k, k);
    for (uint32_t j = 0; j < k; ++j) {
      const double want = at(x, r * k + j) - ref.max - std::log(ref.sum);
      EXPECT_TRUE(close(at(y, r * k + j), want, 1e-5, 2e-5)) << r << "," << j;
    }
  }
}

// Two column blocks of each row processed one after the other, as FlashAttention does.
class SoftmaxFlashTest : public AdvTest {
 protected:
  static constexpr uint32_t m = 4, k = 64;
  void SetUp() override {
    AdvTest::SetUp();
    x1 = ub<float>(m * k);
    x2 = ub<float>(m * k);
    y = ub<float>(m * k);
    expMax = ub<float>(m * 8);
    sum = ub<float>(m * 8);
    max = ub<float>(m * 8);
    fill(x1, ramp(m * k, -4, 2));
    fill(x2, ramp(m * k, -1, 5));
    tiling.srcM = m;
    tiling.srcK = k;
  }
  // Statistics over both blocks of row r.
  RowRef joint(uint32_t r) {
    RowRef a = row_ref(x1, r, k, k), b = row_ref(x2, r, k, k);
    const double mx = std::max(a.max, b.max);
    return RowRef{mx, a.sum * std::exp(a.max - mx) + b.sum * std::exp(b.max - mx)};
  }
  LocalTensor<float> x1, x2, y, expMax, sum, max;
  AscendC::tiling::SoftMaxTiling tiling;
};

TEST_F(SoftmaxFlashTest, FlashV2UpdateInPlace) {
  AscendC::SoftmaxFlashV2<float, false>(y, sum, max, x1, expMax, sum, max, tiling);
  for (uint32_t r = 0; r < m; ++r) {
    const RowRef a = row_ref(x1, r, k, k);
    EXPECT_TRUE(close(at(max, r * 8), a.max, 1e-6, 0));
    EXPECT_TRUE(close(at(sum, r * 8 + 7), a.sum, 1e-5, 0));
    EXPECT_TRUE(close(at(y, r * k + 3), std::exp(at(x1, r * k + 3) - a.max), 1e-5, 1e-7));  // not normalised
  }
  std::vector<double> firstMax(m);
  for (uint32_t r = 0; r < m; ++r) firstMax[r] = at(max, r * 8);
  // The same tensors serve as inputs and outputs of the update.
  AscendC::SoftmaxFlashV2<float, true>(y, sum, max, x2, expMax, sum, max, tiling);
  for (uint32_t r = 0; r < m; ++r) {
    const RowRef j = joint(r);
    EXPECT_TRUE(close(at(max, r * 8 + 2), j.max, 1e-6, 0)) << r;
    EXPECT_TRUE(close(at(sum, r * 8 + 2), j.sum, 1e-5, 0)) << r;
    EXPECT_TRUE(close(at(expMax, r * 8), std::exp(firstMax[r] - j.max), 1e-5, 1e-7)) << r;
    EXPECT_TRUE(close(at(y, r * k + 9), std::exp(at(x2, r * k + 9) - j.max), 1e-5, 1e-7)) << r;
  }
}

TEST_F(SoftmaxFlashTest, FlashV1UpdateRescales) {
  LocalTensor<float> inSum = ub<float>(m * 8), inMax = ub<float>(m * 8);
  AscendC::SoftmaxFlash<float>(y, inSum, inMax, x1, expMax, inSum, inMax, tiling, false);
  std::vector<RowRef> first(m);
  for (uint32_t r = 0; r < m; ++r) first[r] = row_ref(x1, r, k, k);
  AscendC::SoftmaxFlash<float>(y, sum, max, x2, expMax, inSum, inMax, tiling, true);
  for (uint32_t r = 0; r < m; ++r) {
    const RowRef j = joint(r);
    EXPECT_TRUE(close(at(max, r * 8), j.max, 1e-6, 0));
    EXPECT_TRUE(close(at(sum, r * 8), j.sum, 1e-5, 0));
    const double em = std::exp(first[r].max - j.max) * first[r].sum / j.sum;
    EXPECT_TRUE(close(at(expMax, r * 8 + 4), em, 1e-5, 1e-7)) << r;
    EXPECT_TRUE(close(at(y, r * k + 1), std::exp(at(x2, r * k + 1) - j.max) / j.sum, 1e-5, 1e-8)) << r;
  }
}

TEST_F(SoftmaxFlashTest, HalfInputsWithFloatStatistics) {
  LocalTensor<half> hx = ub<half>(m * k), hy = ub<half>(m * k), hExp = ub<half>(m * 16);
  fill(hx, ramp(m * k, -2, 2));
  AscendC::SoftmaxFlashV2<half, false>(hy, sum, max, hx, hExp, sum, max, tiling);
  for (uint32_t r = 0; r < m; ++r) {
    const RowRef a = row_ref(hx, r, k, k);
    EXPECT_TRUE(close(at(sum, r * 8), a.sum, 1e-5, 0));
    EXPECT_TRUE(close(at(hy, r * k), std::exp(at(hx, r * k) - a.max), 2e-3, 1e-4));
  }
}

TEST(SoftmaxTiling, HostTilingSplitsRowsByWorkspace) {
  AscendC::tiling::SoftMaxTiling t;
  const uint32_t minBytes = AscendC::GetSoftMaxMinTmpSize(ge::Shape({320, 64}), 2, false);
  const uint32_t maxBytes = AscendC::GetSoftMaxMaxTmpSize(ge::Shape({320, 64}), 2, false);
  EXPECT_LT(minBytes, maxBytes);
  AscendC::SoftMaxTilingFunc(ge::Shape({320, 64}), 2, 5 * minBytes, t);
  EXPECT_EQ(t.srcM, 320u);
  EXPECT_EQ(t.srcK, 64u);
  EXPECT_EQ(t.outMaxK, 16u);
  EXPECT_EQ(t.splitM, 5u);
  EXPECT_EQ(t.rangeM, 64u);
  EXPECT_EQ(t.tailM, 0u);
  AscendC::SoftMaxTilingFunc(ge::Shape({10, 64}), 4, maxBytes, t);
  EXPECT_EQ(t.splitM, 10u);
  optiling::SoftMaxTiling o;  // host tiling data names the same layout
  AscendC::SoftMaxFlashV2TilingFunc(ge::Shape({7, 32}), 2, 4, 3 * minBytes, o, true);
  EXPECT_EQ(o.outMaxK, 8u);
  // 3 * 544 bytes hold three rows of 32 floats in the three flash work buffers (416 B each).
  EXPECT_EQ(o.splitM, 3u);
  EXPECT_EQ(o.rangeM, 2u);
  EXPECT_EQ(o.tailM, 1u);
}

TEST_F(Softmax, ErrorsNameTheProblem) {
  const uint32_t m = 8, k = 64;
  LocalTensor<float> x = ub<float>(m * k), y = ub<float>(m * k);
  LocalTensor<float> sum = ub<float>(m * 8), max = ub<float>(m * 8);
  uint32_t work = 0;
  const auto tiling = host_tiling<float>(m, k, 4, work);
  LocalTensor<uint8_t> small = ub<uint8_t>(64);
  try {
    AscendC::SoftMax<float>(y, sum, max, x, small, tiling);
    FAIL();
  } catch (const aoc::KernelError& e) {
    EXPECT_NE(std::string(e.what()).find(std::to_string(work)), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("64 bytes"), std::string::npos) << e.what();
  }
  // A row of 20 floats is not a whole number of 32 B blocks.
  EXPECT_THROW(AscendC::SoftMax<float>(y, sum, max, x, tiling, SoftMaxShapeInfo{m, 20, m, 20}), aoc::KernelError);
  // The max output is too short for m rows of one block each.
  LocalTensor<float> shortMax = ub<float>(8);
  EXPECT_THROW(AscendC::SoftMax<float>(y, sum, shortMax, x, tiling), aoc::KernelError);
}

TEST_F(Softmax, TraceFollowsRowPasses) {
  const uint32_t m = 16, k = 64;
  LocalTensor<float> x = ub<float>(m * k), y = ub<float>(m * k);
  LocalTensor<float> sum = ub<float>(m * 8), max = ub<float>(m * 8);
  AscendC::tiling::SoftMaxTiling t;
  const uint32_t perRow = AscendC::GetSoftMaxMinTmpSize(ge::Shape({m, k}), 4, false);
  AscendC::SoftMaxTilingFunc(ge::Shape({m, k}), 4, 4 * perRow, t);
  ASSERT_EQ(t.splitM, 4u);
  LocalTensor<uint8_t> tmp = ub<uint8_t>(4 * perRow);
  AscendC::SoftMax<float>(y, sum, max, x, tmp, t);
  const auto ops = vec_ops();
  size_t reduceMax = 0;
  for (const auto& o : ops) reduceMax += o == "ReduceMax";
  EXPECT_EQ(reduceMax, 4u);  // 16 rows in passes of 4
  EXPECT_TRUE(contains(ops, "Exp"));
  EXPECT_TRUE(contains(ops, "ReduceSum"));
  EXPECT_TRUE(contains(ops, "Div"));
  // The Brcb that writes the max output targets the max tensor's rows of the first pass.
  for (const aoc::TraceRecord& r : aoc::core().trace.records) {
    if (std::string(r.op) == "Brcb") {
      EXPECT_EQ(r.write.lo, max.GetPhyAddr());
      EXPECT_EQ(r.write.hi, max.GetPhyAddr() + 4 * 32);
      break;
    }
  }
}

}  // namespace
