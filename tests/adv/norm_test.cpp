// LayerNorm (classic mean/variance form and the newer mean/rstd form) and RmsNorm against
// double-precision references; host tiling helpers, padding, scratch errors and traces.
#include "adv/adv_test_util.h"
#include "tiling/tiling_api.h"

namespace {

using namespace advtest;
using AscendC::LocalTensor;

struct Stats {
  double mean, var;
};
template <typename T> Stats stats(const LocalTensor<T>& x, uint32_t row, uint32_t stride, uint32_t len) {
  double s = 0, q = 0;
  for (uint32_t c = 0; c < len; ++c) s += at(x, row * stride + c);
  const double mean = s / len;
  for (uint32_t c = 0; c < len; ++c) q += (at(x, row * stride + c) - mean) * (at(x, row * stride + c) - mean);
  return Stats{mean, q / len};
}

template <typename T> class LayerNormTyped : public AdvTest {};
using Types = ::testing::Types<float, half>;
TYPED_TEST_SUITE(LayerNormTyped, Types);

TYPED_TEST(LayerNormTyped, ClassicMeanVarianceAndOutput) {
  using T = TypeParam;
  const uint32_t B = 2, S = 3, H = 64, oriH = std::is_same_v<T, float> ? 56 : 64;
  LocalTensor<T> x = this->template ub<T>(B * S * H), y = this->template ub<T>(B * S * H);
  LocalTensor<T> gamma = this->template ub<T>(H), beta = this->template ub<T>(H);
  LocalTensor<T> mean = this->template ub<T>(B * S), var = this->template ub<T>(B * S);
  fill(x, ramp(B * S * H, -3, 7));
  fill(gamma, ramp(H, 0.5, 1.5));
  fill(beta, ramp(H, -0.25, 0.25));
  const ge::Shape shape({B, S, H, oriH});
  uint32_t mx = 0, mn = 0;
  AscendC::GetLayerNormMaxMinTmpSize(shape, sizeof(T), false, mx, mn);
  AscendC::tiling::LayerNormTiling tiling;
  AscendC::GetLayerNormNDTilingInfo(shape, mn, sizeof(T), false, tiling);
  EXPECT_EQ(tiling.meanVarSize, B * S);
  EXPECT_EQ(tiling.originalHLength, oriH);
  LocalTensor<uint8_t> tmp = this->template ub<uint8_t>(mn);
  const T eps = T(1e-5f);
  AscendC::LayerNorm<T>(y, mean, var, x, gamma, beta, tmp, eps, tiling);
  for (uint32_t r = 0; r < B * S; ++r) {
    const Stats st = stats(x, r, H, oriH);
    EXPECT_TRUE(close(at(mean, r), st.mean, rtol<T>(), 1e-5)) << r;
    EXPECT_TRUE(close(at(var, r), st.var, 2 * rtol<T>(), 1e-5)) << r;
    for (uint32_t c = 0; c < oriH; ++c) {
      const double want = (at(x, r * H + c) - st.mean) / std::sqrt(st.var + double(float(eps))) * at(gamma, c) +
                          at(beta, c);
      EXPECT_TRUE(close(at(y, r * H + c), want, 2 * rtol<T>(), 2 * rtol<T>())) << r << "," << c;
    }
    for (uint32_t c = oriH; c < H; ++c) EXPECT_EQ(at(y, r * H + c), 0.0);
  }
  // Without a tmp buffer the result is the same.
  LocalTensor<T> y2 = this->template ub<T>(B * S * H);
  AscendC::LayerNorm<T>(y2, mean, var, x, gamma, beta, eps, tiling);
  for (uint32_t i = 0; i < B * S * H; ++i) EXPECT_EQ(at(y2, i), at(y, i));
}

TYPED_TEST(LayerNormTyped, SeparateFormWithRstd) {
  using T = TypeParam;
  const uint32_t A = 5, R = 40, Rpad = 48;
  LocalTensor<T> x = this->template ub<T>(A * Rpad), y = this->template ub<T>(A * Rpad);
  LocalTensor<float> gamma = this->template ub<float>(Rpad), beta = this->template ub<float>(Rpad);
  LocalTensor<float> mean = this->template ub<float>(A), rstd = this->template ub<float>(A);
  fill(x, ramp(A * Rpad, -2, 2));
  fill(gamma, ramp(Rpad, 0.9, 1.1));
  fill(beta, ramp(Rpad, 0.0, 0.5));
  AscendC::tiling::LayerNormSeparateTiling tiling;
  uint32_t mx = 0, mn = 0;
  AscendC::GetLayerNormMaxMinTmpSize(ge::Shape({A, Rpad}), sizeof(T), false, true, false, mx, mn);
  AscendC::GetLayerNormNDTilingInfo(ge::Shape({A, Rpad}), mx, sizeof(T), false, true, tiling);
  EXPECT_EQ(tiling.aLength, A);
  const AscendC::LayerNormPara para{A, R, Rpad};
  const float eps = 1e-6f;
  AscendC::LayerNorm<float, T>(y, mean, rstd, x, gamma, beta, eps, para, tiling);
  for (uint32_t a = 0; a < A; ++a) {
    const Stats st = stats(x, a, Rpad, R);
    const double rs = 1.0 / std::sqrt(st.var + eps);
    EXPECT_TRUE(close(at(mean, a), st.mean, 1e-5, 1e-6)) << a;
    EXPECT_TRUE(close(at(rstd, a), rs, 1e-5, 0)) << a;
    for (uint32_t c = 0; c < R; ++c) {
      const double want = (at(x, a * Rpad + c) - st.mean) * rs * at(gamma, c) + at(beta, c);
      EXPECT_TRUE(close(at(y, a * Rpad + c), want, 2 * rtol<T>(), 2 * rtol<T>())) << a << "," << c;
    }
  }
}

class Norm : public AdvTest {};

constexpr AscendC::LayerNormConfig kNoBeta = {true, false, false, true};

TEST_F(Norm, LayerNormWithoutBeta) {
  const uint32_t A = 2, R = 32;
  LocalTensor<float> x = ub<float>(A * R), y = ub<float>(A * R), g = ub<float>(R), b = ub<float>(R);
  LocalTensor<float> mean = ub<float>(A), rstd = ub<float>(A);
  fill(x, ramp(A * R, -1, 1));
  fill(g, std::vector<double>(R, 2.0));
  fill(b, std::vector<double>(R, 100.0));  // must be ignored
  AscendC::tiling::LayerNormSeparateTiling t;
  AscendC::LayerNorm<float, float, false, kNoBeta>(y, mean, rstd, x, g, b, 1e-5f, AscendC::LayerNormPara{A, R, R}, t);
  const Stats st = stats(x, 1, R, R);
  EXPECT_TRUE(close(at(y, R + 3), (at(x, R + 3) - st.mean) / std::sqrt(st.var + 1e-5) * 2.0, 1e-5, 1e-6));
}

TEST_F(Norm, LayerNormTmpTooSmall) {
  const uint32_t B = 1, S = 4, H = 64;
  LocalTensor<float> x = ub<float>(B * S * H), y = ub<float>(B * S * H), g = ub<float>(H), b = ub<float>(H);
  LocalTensor<float> mean = ub<float>(B * S), var = ub<float>(B * S);
  AscendC::tiling::LayerNormTiling t;
  uint32_t mx = 0, mn = 0;
  AscendC::GetLayerNormMaxMinTmpSize(ge::Shape({B, S, H}), 4, false, mx, mn);
  AscendC::GetLayerNormNDTilingInfo(ge::Shape({B, S, H}), mn, 4, false, t);
  LocalTensor<uint8_t> tmp = ub<uint8_t>(mn - 32);
  try {
    AscendC::LayerNorm<float>(y, mean, var, x, g, b, tmp, 1e-5f, t);
    FAIL();
  } catch (const aoc::KernelError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("LayerNorm"), std::string::npos);
    EXPECT_NE(what.find(std::to_string(mn)), std::string::npos) << what;
    EXPECT_NE(what.find(std::to_string(mn - 32)), std::string::npos) << what;
  }
}

TEST_F(Norm, LayerNormTraceWritesStatistics) {
  const uint32_t B = 1, S = 8, H = 32;
  LocalTensor<float> x = ub<float>(B * S * H), y = ub<float>(B * S * H), g = ub<float>(H), b = ub<float>(H);
  LocalTensor<float> mean = ub<float>(B * S), var = ub<float>(B * S);
  AscendC::tiling::LayerNormTiling t;
  AscendC::GetLayerNormNDTilingInfo(ge::Shape({B, S, H}), 1 << 14, 4, false, t);
  AscendC::LayerNorm<float>(y, mean, var, x, g, b, 1e-5f, t);
  const auto ops = vec_ops();
  EXPECT_TRUE(contains(ops, "ReduceSum"));
  EXPECT_TRUE(contains(ops, "Rsqrt"));
  bool meanWritten = false, varWritten = false, gammaRead = false;
  for (const aoc::TraceRecord& r : aoc::core().trace.records) {
    meanWritten |= r.has_write && r.write.lo == mean.GetPhyAddr();
    varWritten |= r.has_write && r.write.lo == var.GetPhyAddr();
    for (int i = 0; i < r.nreads; ++i) gammaRead |= r.reads[i].lo == g.GetPhyAddr() && r.reads[i].hi > r.reads[i].lo;
  }
  EXPECT_TRUE(meanWritten);
  EXPECT_TRUE(varWritten);
  EXPECT_TRUE(gammaRead);
}

template <typename T> class RmsNormTyped : public AdvTest {};
TYPED_TEST_SUITE(RmsNormTyped, Types);

TYPED_TEST(RmsNormTyped, MatchesReference) {
  using T = TypeParam;
  const uint32_t B = 2, S = 4, H = 64, oriH = 48;
  LocalTensor<T> x = this->template ub<T>(B * S * H), y = this->template ub<T>(B * S * H);
  LocalTensor<T> g = this->template ub<T>(H);
  fill(x, ramp(B * S * H, -4, 4));
  fill(g, ramp(H, 0.5, 2.0));
  uint32_t mx = 0, mn = 0;
  ASSERT_TRUE(AscendC::GetRmsNormMaxMinTmpSize(ge::Shape({B, S, H}), sizeof(T), mx, mn));
  AscendC::tiling::RmsNormTiling t;
  ASSERT_TRUE(AscendC::GetRmsNormTilingInfo(ge::Shape({B, S, H}), ge::Shape({B, S, oriH}), mn, sizeof(T), t));
  EXPECT_FALSE(AscendC::GetRmsNormTilingInfo(ge::Shape({B, S, H}), ge::Shape({B, S, oriH}), mn - 32, sizeof(T), t));
  ASSERT_TRUE(AscendC::GetRmsNormTilingInfo(ge::Shape({B, S, H}), ge::Shape({B, S, oriH}), mn, sizeof(T), t));
  LocalTensor<uint8_t> tmp = this->template ub<uint8_t>(mn);
  const float eps = 1e-6f;
  AscendC::RmsNorm<T>(y, x, g, tmp, T(eps), t);
  for (uint32_t r = 0; r < B * S; ++r) {
    double q = 0;
    for (uint32_t c = 0; c < oriH; ++c) q += at(x, r * H + c) * at(x, r * H + c);
    const double scale = 1.0 / std::sqrt(q / oriH + double(float(T(eps))));
    for (uint32_t c = 0; c < oriH; ++c) {
      EXPECT_TRUE(close(at(y, r * H + c), at(x, r * H + c) * scale * at(g, c), 2 * rtol<T>(), 2 * rtol<T>()))
          << r << "," << c;
    }
    for (uint32_t c = oriH; c < H; ++c) EXPECT_EQ(at(y, r * H + c), 0.0);
  }
  const auto ops = vec_ops();
  EXPECT_TRUE(contains(ops, "Rsqrt"));
  EXPECT_EQ(ops.front() == "Cast", (std::is_same_v<T, half>));
}

}  // namespace
