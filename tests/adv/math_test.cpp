// Math APIs (Tanh, Erf, Erfc, Exp, Log*, Power, Sin, Cos, Sinh, Cosh, Floor, Ceil, Round,
// Trunc, Sign, ClampMax/Min) against double-precision references and special values.
#include "adv/adv_test_util.h"
#include "tiling/tiling_api.h"

namespace {

using namespace advtest;
using AscendC::LocalTensor;

double sign_ref(double x) { return x > 0 ? 1.0 : (x < 0 ? -1.0 : x); }
double round_ref(double x) { return std::round(x); }

template <typename T> class MathTyped : public AdvTest {
 protected:
  template <typename Run>
  void expect_unary(const std::vector<double>& in, Run run, double (*ref)(double), double atol) {
    const uint32_t n = static_cast<uint32_t>(in.size());
    LocalTensor<T> src = this->template ub<T>(n), dst = this->template ub<T>(n);
    fill(src, in);
    run(dst, src, n);
    for (uint32_t i = 0; i < n; ++i) {
      EXPECT_TRUE(close(at(dst, i), ref(at(src, i)), rtol<T>(), atol)) << "element " << i << " x=" << at(src, i);
    }
  }
};

using Types = ::testing::Types<float, half, bfloat16_t>;
TYPED_TEST_SUITE(MathTyped, Types);

#define RUN(call) [&](auto d, auto s, uint32_t n) { call; }

TYPED_TEST(MathTyped, TranscendentalFunctions) {
  using T = TypeParam;
  const double atol = std::is_same_v<T, float> ? 2e-6 : 2e-3;
  LocalTensor<uint8_t> tmp = this->template ub<uint8_t>(64 * 1024);
  this->expect_unary(ramp(512, -6, 6), RUN(AscendC::Tanh<T>(d, s, tmp, n)), [](double x) { return std::tanh(x); },
                     atol);
  this->expect_unary(ramp(512, -4, 4), RUN(AscendC::Erf<T>(d, s, n)), [](double x) { return std::erf(x); }, atol);
  this->expect_unary(ramp(512, -3, 5), RUN(AscendC::Erfc<T>(d, s, tmp, n)), [](double x) { return std::erfc(x); },
                     atol);
  this->expect_unary(ramp(512, -10, 10), RUN((AscendC::Exp<T, 12, false>(d, s, tmp, n))),
                     [](double x) { return std::exp(x); }, atol);
  this->expect_unary(ramp(512, 0.01, 100), RUN(AscendC::Log<T>(d, s, n)), [](double x) { return std::log(x); }, atol);
  this->expect_unary(ramp(512, 0.01, 100), RUN(AscendC::Log2<T>(d, s, tmp, n)),
                     [](double x) { return std::log2(x); }, atol);
  this->expect_unary(ramp(512, 0.01, 100), RUN(AscendC::Log10<T>(d, s)), [](double x) { return std::log10(x); },
                     atol);
  // Sin/Cos: absolute error is what matters near the zeros.
  const double trig = std::is_same_v<T, float> ? 2e-6 : (std::is_same_v<T, half> ? 2e-3 : 1.6e-2);
  this->expect_unary(ramp(512, -10, 10), RUN(AscendC::Sin<T>(d, s, tmp, n)), [](double x) { return std::sin(x); },
                     trig);
  this->expect_unary(ramp(512, -10, 10), RUN(AscendC::Cos<T>(d, s, n)), [](double x) { return std::cos(x); }, trig);
  this->expect_unary(ramp(512, -5, 5), RUN(AscendC::Sinh<T>(d, s, n)), [](double x) { return std::sinh(x); }, atol);
  this->expect_unary(ramp(512, -5, 5), RUN(AscendC::Cosh<T>(d, s, n)), [](double x) { return std::cosh(x); }, atol);
}

TYPED_TEST(MathTyped, RoundingFamilyAndSign) {
  using T = TypeParam;
  const auto in = ramp(400, -50, 50);
  this->expect_unary(in, RUN(AscendC::Floor<T>(d, s, n)), [](double x) { return std::floor(x); }, 0);
  this->expect_unary(in, RUN(AscendC::Ceil<T>(d, s, n)), [](double x) { return std::ceil(x); }, 0);
  this->expect_unary(in, RUN(AscendC::Trunc<T>(d, s, n)), [](double x) { return std::trunc(x); }, 0);
  this->expect_unary(in, RUN(AscendC::Round<T>(d, s, n)), round_ref, 0);
  this->expect_unary(in, RUN(AscendC::Sign<T>(d, s, n)), sign_ref, 0);
}

TYPED_TEST(MathTyped, PowerAllForms) {
  using T = TypeParam;
  const uint32_t n = 256;
  LocalTensor<T> b = this->template ub<T>(n), e = this->template ub<T>(n), d = this->template ub<T>(n);
  fill(b, ramp(n, 0.1, 4));
  fill(e, ramp(n, -3, 3));
  const double atol = std::is_same_v<T, float> ? 1e-6 : 2e-3;
  AscendC::Power<T>(d, b, e, n);
  for (uint32_t i = 0; i < n; ++i) EXPECT_TRUE(close(at(d, i), std::pow(at(b, i), at(e, i)), rtol<T>(), atol)) << i;
  AscendC::Power<T>(d, b, T(2.5f), n);
  for (uint32_t i = 0; i < n; ++i) EXPECT_TRUE(close(at(d, i), std::pow(at(b, i), 2.5), rtol<T>(), atol)) << i;
  AscendC::Power<T>(d, T(2.0f), e, n);
  for (uint32_t i = 0; i < n; ++i) EXPECT_TRUE(close(at(d, i), std::pow(2.0, at(e, i)), rtol<T>(), atol)) << i;
}

TYPED_TEST(MathTyped, Clamp) {
  using T = TypeParam;
  const uint32_t n = 128;
  LocalTensor<T> s = this->template ub<T>(n), d = this->template ub<T>(n);
  fill(s, ramp(n, -4, 4));
  AscendC::ClampMax<T>(d, s, T(1.5f), n);
  for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(at(d, i), std::min(at(s, i), 1.5)) << i;
  AscendC::ClampMin<T>(d, s, T(-0.5f), n);
  for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(at(d, i), std::max(at(s, i), -0.5)) << i;
}

class Math : public AdvTest {};

TEST_F(Math, SpecialValuesAndDomains) {
  const std::vector<double> in = {0.0, -1.0, INFINITY, -INFINITY, NAN, 2.5, -2.5, 1e30};
  LocalTensor<float> s = ub<float>(8), d = ub<float>(8);
  fill(s, in);
  AscendC::Log(d, s, 8);
  EXPECT_EQ(at(d, 0), -INFINITY);
  EXPECT_TRUE(std::isnan(at(d, 1)));
  EXPECT_EQ(at(d, 2), INFINITY);
  EXPECT_TRUE(std::isnan(at(d, 4)));
  AscendC::Tanh(d, s, 8);
  EXPECT_EQ(at(d, 2), 1.0);
  EXPECT_EQ(at(d, 3), -1.0);
  EXPECT_EQ(at(d, 7), 1.0);
  AscendC::Erf(d, s, 8);
  EXPECT_EQ(at(d, 2), 1.0);
  EXPECT_EQ(at(d, 3), -1.0);
  AscendC::Erfc(d, s, 8);
  EXPECT_EQ(at(d, 2), 0.0);
  EXPECT_EQ(at(d, 3), 2.0);
  AscendC::Exp<float, 0>(d, s, 8);
  EXPECT_EQ(at(d, 7), INFINITY);
  EXPECT_EQ(at(d, 3), 0.0);
  AscendC::Round(d, s, 8);
  EXPECT_EQ(at(d, 5), 3.0);   // halves round away from zero
  EXPECT_EQ(at(d, 6), -3.0);
  EXPECT_TRUE(std::isnan(at(d, 4)));
  AscendC::Sign(d, s, 8);
  EXPECT_EQ(at(d, 0), 0.0);
  EXPECT_EQ(at(d, 1), -1.0);
  EXPECT_EQ(at(d, 2), 1.0);
  EXPECT_TRUE(std::isnan(at(d, 4)));
  AscendC::Floor(d, s, 8);
  EXPECT_EQ(at(d, 6), -3.0);
  EXPECT_EQ(at(d, 7), 1e30f);
  // Power: negative base with a fractional exponent is outside the domain.
  AscendC::Power(d, s, -1.0f / 3.0f, 8);
  EXPECT_TRUE(std::isnan(at(d, 1)));
  EXPECT_EQ(at(d, 0), INFINITY);
}

TEST_F(Math, HalfOverflowRoundsToInfinity) {
  LocalTensor<half> s = ub<half>(16), d = ub<half>(16);
  fill(s, std::vector<double>(16, 12.0));
  AscendC::Exp<half, 8>(d, s, 16);  // e^12 = 162755 > half max
  EXPECT_EQ(at(d, 0), INFINITY);
}

TEST_F(Math, TmpSizeHelpersMatchKernelRule) {
  for (uint32_t typeSize : {2u, 4u}) {
    uint32_t mx = 0, mn = 0;
    AscendC::GetTanhMaxMinTmpSize(ge::Shape({2048}), typeSize, false, mx, mn);
    EXPECT_GT(mn, 0u);
    EXPECT_GE(mx, mn);
    uint32_t live = 0, extra = 0;
    AscendC::GetTanhTmpBufferFactorSize(typeSize, live, extra);
    EXPECT_EQ(mx, live * 2048 * typeSize + extra);
  }
  LocalTensor<float> s = ub<float>(2048), d = ub<float>(2048);
  uint32_t mx = 0, mn = 0;
  AscendC::GetTanhMaxMinTmpSize(ge::Shape({2048}), 4, false, mx, mn);
  LocalTensor<uint8_t> justBelow = ub<uint8_t>(mn - 32);
  EXPECT_THROW(AscendC::Tanh(d, s, justBelow, 2048), aoc::KernelError);
  LocalTensor<uint8_t> exact = ub<uint8_t>(mn);
  EXPECT_NO_THROW(AscendC::Tanh(d, s, exact, 2048));
}

TEST_F(Math, ExpTaylorLevelShapesTheTrace) {
  LocalTensor<float> s = ub<float>(64), d = ub<float>(64);
  AscendC::Exp<float, 4>(d, s, 64);
  const auto four = vec_ops();
  aoc::core().trace.records.clear();
  AscendC::Exp<float, 10>(d, s, 64);
  const auto ten = vec_ops();
  EXPECT_EQ(ten.size() - four.size(), 12u);  // 6 more levels, a Muls and an Adds each
  EXPECT_TRUE(contains(ten, "Exp"));
}

}  // namespace
