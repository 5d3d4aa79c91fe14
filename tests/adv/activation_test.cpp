// Activation APIs (Sigmoid, Gelu family, Silu, Swish, SwiGLU) against double-precision
// references, plus scratch-space rules, operand validation and the traced expansion.
#include "adv/adv_test_util.h"
#include "tiling/tiling_api.h"

namespace {

using namespace advtest;
using AscendC::LocalTensor;

double sigmoid_ref(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double gelu_ref(double x) {
  const double c = std::sqrt(2.0 / M_PI);
  return 0.5 * x * (1.0 + std::tanh(c * (x + 0.044715 * x * x * x)));
}
double faster_gelu_ref(double x) { return x * sigmoid_ref(1.702 * x); }
double faster_gelu_v2_ref(double x) {
  // 0.5 + sgn(x) * (0.5 - 0.1444 * (min(|x|/sqrt2, 1.769) - 1.769)^2) approximates Phi(x).
  const double t = std::min(std::fabs(x) * 0.7071, 1.769) - 1.769;
  const double sgn = x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0);
  return x * (0.5 + sgn * (0.5 - 0.1444 * t * t));
}
double silu_ref(double x) { return x * sigmoid_ref(x); }

template <typename T> class ActivationTyped : public AdvTest {
 protected:
  // Runs `run(dst, src, n)` on `in` and compares every element with ref(input as rounded to T).
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
  LocalTensor<uint8_t> tmp(uint32_t bytes) { return this->template ub<uint8_t>(bytes); }
};

using Types = ::testing::Types<float, half, bfloat16_t>;
TYPED_TEST_SUITE(ActivationTyped, Types);

TYPED_TEST(ActivationTyped, SigmoidWithAndWithoutTmpBuffer) {
  using T = TypeParam;
  const auto in = ramp(1000, -12.0, 12.0);
  uint32_t mx = 0, mn = 0;
  AscendC::GetSigmoidMaxMinTmpSize(ge::Shape({1000}), sizeof(T), false, mx, mn);
  LocalTensor<uint8_t> tmp = this->tmp(mn);
  this->expect_unary(in, [&](auto d, auto s, uint32_t n) { AscendC::Sigmoid<T>(d, s, tmp, n); }, sigmoid_ref, 1e-6);
  this->expect_unary(in, [&](auto d, auto s, uint32_t n) { AscendC::Sigmoid<T>(d, s, n); }, sigmoid_ref, 1e-6);
  this->expect_unary(in, [&](auto d, auto s, uint32_t) { AscendC::Sigmoid(d, s); }, sigmoid_ref, 1e-6);
}

TYPED_TEST(ActivationTyped, GeluFamily) {
  using T = TypeParam;
  const auto in = ramp(512, -8.0, 8.0);
  LocalTensor<uint8_t> tmp = this->tmp(AscendC::GetGeluMaxTmpSize(ge::Shape({512}), sizeof(T)));
  const double atol = std::is_same_v<T, float> ? 1e-6 : 2e-3;
  this->expect_unary(in, [&](auto d, auto s, uint32_t n) { AscendC::Gelu(d, s, tmp, n); }, gelu_ref, atol);
  this->expect_unary(in, [&](auto d, auto s, uint32_t n) { AscendC::Gelu(d, s, n); }, gelu_ref, atol);
  this->expect_unary(in, [&](auto d, auto s, uint32_t n) { AscendC::FasterGelu(d, s, tmp, n); }, faster_gelu_ref,
                     atol);
  this->expect_unary(in, [&](auto d, auto s, uint32_t n) { AscendC::FasterGeluV2(d, s, n); }, faster_gelu_v2_ref,
                     atol);
}

TYPED_TEST(ActivationTyped, SiluSwishSwiGLU) {
  using T = TypeParam;
  const auto in = ramp(256, -10.0, 10.0);
  const double atol = std::is_same_v<T, float> ? 1e-6 : 2e-3;
  this->expect_unary(in, [&](auto d, auto s, uint32_t n) { AscendC::Silu(d, s, n); }, silu_ref, atol);
  this->expect_unary(in, [&](auto d, auto s, uint32_t n) { AscendC::Swish(d, s, n, T(1.0f)); }, silu_ref, atol);

  // SwiGLU: dst = src0 * swish_beta(src1).
  const uint32_t n = 256;
  LocalTensor<T> a = this->template ub<T>(n), b = this->template ub<T>(n), d = this->template ub<T>(n);
  fill(a, ramp(n, -3.0, 3.0));
  fill(b, ramp(n, -6.0, 6.0));
  const float beta = 1.5f;
  AscendC::SwiGLU<T>(d, a, b, beta, n);
  for (uint32_t i = 0; i < n; ++i) {
    const double want = at(a, i) * at(b, i) * sigmoid_ref(beta * at(b, i));
    EXPECT_TRUE(close(at(d, i), want, rtol<T>(), atol)) << i;
  }
}

class Activation : public AdvTest {};

TEST_F(Activation, SpecialValuesFloat) {
  const std::vector<double> in = {0.0, 100.0, -100.0, INFINITY, -INFINITY, NAN, -1000.0, 1000.0};
  LocalTensor<float> s = ub<float>(8), d = ub<float>(8);
  fill(s, in);
  AscendC::Sigmoid(d, s, 8);
  const double sig[] = {0.5, 1.0, 0.0, 1.0, 0.0, NAN, 0.0, 1.0};
  for (int i = 0; i < 8; ++i) EXPECT_TRUE(close(at(d, i), sig[i], 1e-6, 1e-30)) << i;
  AscendC::Gelu(d, s, 8);
  // Gelu saturates: ~x for large x, ~0 for very negative x; NaN propagates.
  EXPECT_EQ(at(d, 0), 0.0);
  EXPECT_TRUE(close(at(d, 1), 100.0, 1e-6, 0));
  EXPECT_TRUE(close(at(d, 2), 0.0, 0, 1e-30));
  EXPECT_TRUE(std::isnan(at(d, 5)));
  EXPECT_TRUE(close(at(d, 6), 0.0, 0, 1e-30));
  EXPECT_TRUE(close(at(d, 7), 1000.0, 1e-6, 0));
  AscendC::FasterGeluV2(d, s, 8);
  EXPECT_EQ(at(d, 0), 0.0);
  EXPECT_TRUE(close(at(d, 1), 100.0, 1e-6, 0));
  EXPECT_TRUE(close(at(d, 2), 0.0, 0, 1e-30));
}

TEST_F(Activation, TmpBufferTooSmallNamesBothSizes) {
  uint32_t mx = 0, mn = 0;
  AscendC::GetSigmoidMaxMinTmpSize(ge::Shape({1024}), sizeof(half), false, mx, mn);
  ASSERT_GT(mn, 32u);
  LocalTensor<half> s = ub<half>(1024), d = ub<half>(1024);
  LocalTensor<uint8_t> small = ub<uint8_t>(32);
  fill(s, ramp(1024, -1, 1));
  try {
    AscendC::Sigmoid(d, s, small, 1024);
    FAIL() << "expected an error";
  } catch (const aoc::KernelError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("Sigmoid"), std::string::npos) << what;
    EXPECT_NE(what.find("32 bytes"), std::string::npos) << what;
    EXPECT_NE(what.find(std::to_string(mn)), std::string::npos) << what;
    EXPECT_NE(what.find("activation_test.cpp"), std::string::npos) << what;
  }
  // Exactly the reported minimum is accepted.
  LocalTensor<uint8_t> enough = ub<uint8_t>(mn);
  EXPECT_NO_THROW(AscendC::Sigmoid(d, s, enough, 1024));
  EXPECT_TRUE(close(at(d, 0), sigmoid_ref(at(s, 0)), 2e-3, 1e-6));
}

TEST_F(Activation, NoTmpBufferNeedsFreeUb) {
  LocalTensor<half> s = ub<half>(1024), d = ub<half>(1024);
  fill(s, ramp(1024, -1, 1));
  // Pretend the UB is almost fully reserved: only 64 bytes are left for scratch.
  aoc::core().limits.ub_bytes = static_cast<uint32_t>(aoc::ub_bytes_in_use()) + 64;
  try {
    AscendC::Sigmoid(d, s, 1024);
    FAIL() << "expected an error";
  } catch (const aoc::KernelError& e) {
    EXPECT_NE(std::string(e.what()).find("temporary UB space"), std::string::npos) << e.what();
  }
}

TEST_F(Activation, RejectsMisalignedAndOutOfBoundsOperands) {
  LocalTensor<float> s = ub<float>(64), d = ub<float>(64);
  fill(s, ramp(64, -1, 1));
  EXPECT_THROW(AscendC::Sigmoid(d[3], s, 16), aoc::KernelError);  // 12-byte offset
  try {
    AscendC::Sigmoid(d, s[3], 16);
    FAIL();
  } catch (const aoc::KernelError& e) {
    EXPECT_NE(std::string(e.what()).find("not 32-byte aligned"), std::string::npos) << e.what();
  }
  LocalTensor<float> last = ub<float>(8);  // the final tensor: nothing after it in UB
  EXPECT_THROW(AscendC::Silu(last, last, 1u << 20), aoc::KernelError);
}

TEST_F(Activation, TraceListsTheBasicInstructions) {
  LocalTensor<float> s = ub<float>(128), d = ub<float>(128);
  fill(s, ramp(128, -1, 1));
  AscendC::Sigmoid(d, s, 128);
  EXPECT_EQ(vec_ops(), (std::vector<std::string>{"Muls", "Exp", "Adds", "Reciprocal"}));
  const auto& recs = aoc::core().trace.records;
  ASSERT_FALSE(recs.empty());
  const aoc::TraceRecord& first = recs.front();
  EXPECT_EQ(first.dtype, aoc::DType::F32);
  EXPECT_EQ(first.elems, 128u);
  EXPECT_EQ(first.repeats, 2u);  // 128 floats = 512 B = 2 repeats
  EXPECT_EQ(first.reads[0].lo, s.GetPhyAddr());
  const aoc::TraceRecord& last = recs.back();
  ASSERT_TRUE(last.has_write);
  EXPECT_EQ(last.write.lo, d.GetPhyAddr());
  EXPECT_EQ(last.write.hi, d.GetPhyAddr() + 128 * sizeof(float));
  EXPECT_STREQ(last.file, first.file);
  EXPECT_NE(std::string(last.file).find("activation_test.cpp"), std::string::npos);

  // 16-bit inputs are up-cast for the float intermediate and rounded back at the end.
  aoc::core().trace.records.clear();
  LocalTensor<half> hs = ub<half>(128), hd = ub<half>(128);
  AscendC::Gelu(hd, hs, 128);
  const auto ops = vec_ops();
  ASSERT_GE(ops.size(), 3u);
  EXPECT_EQ(ops.front(), "Cast");
  EXPECT_EQ(ops.back(), "Cast");
  EXPECT_TRUE(contains(ops, "Exp"));
  EXPECT_EQ(aoc::core().trace.records.back().dst_dtype, aoc::DType::F16);
}

TEST_F(Activation, SmallScratchSplitsTheWorkIntoChunks) {
  const uint32_t n = 4096;
  LocalTensor<float> s = ub<float>(n), d = ub<float>(n);
  uint32_t mx = 0, mn = 0;
  AscendC::GetSigmoidMaxMinTmpSize(ge::Shape({n}), sizeof(float), false, mx, mn);
  LocalTensor<uint8_t> small = ub<uint8_t>(mn), big = ub<uint8_t>(mx);
  AscendC::Sigmoid(d, s, big, n);
  const size_t onePass = vec_ops().size();
  aoc::core().trace.records.clear();
  AscendC::Sigmoid(d, s, small, n);
  EXPECT_GT(vec_ops().size(), onePass);
  EXPECT_EQ(vec_ops().size() % onePass, 0u);
}

}  // namespace
