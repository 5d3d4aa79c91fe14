// The correctness gate (evaluation.md section 3), one rule per test, with outputs that
// must fail next to the ones that must pass.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "base/rng.h"
#include "package/compare.h"
#include "package/output_check.h"

using namespace aoc::package;

namespace {

const double kNan = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

TypedBuffer buffer(ElemType t, const std::vector<double>& v) {
  TypedBuffer b(t, v.size());
  for (size_t i = 0; i < v.size(); ++i) b.set(i, v[i]);
  return b;
}

std::vector<double> uniform(size_t n, double lo, double hi, uint64_t seed) {
  aoc::base::Xoshiro256 r(seed);
  std::vector<double> v(n);
  for (auto& x : v) x = r.uniform(lo, hi);
  return v;
}

// The reference rounded to `t`, with element i moved by `ulps` units in the last place.
TypedBuffer off_by_ulps(ElemType t, std::vector<double> ref, size_t i, int ulps) {
  TypedBuffer b = buffer(t, ref);
  const double y = b.get(i);
  const int exp = std::ilogb(y);
  const int mant = t == ElemType::F16 ? 10 : t == ElemType::BF16 ? 7 : 23;
  b.set(i, y + ulps * std::ldexp(1.0, exp - mant));
  return b;
}

CompareResult gate(const TypedBuffer& a, const std::vector<double>& ref, Tolerance tol = {},
                   const std::vector<double>* cpu = nullptr) {
  return compare_output(a, ref, tol, 0xFF, cpu);
}

}  // namespace

TEST(Gate, TauPerDtype) {
  EXPECT_EQ(tolerance_tau(ElemType::F16), std::ldexp(1.0, -10));
  EXPECT_EQ(tolerance_tau(ElemType::BF16), std::ldexp(1.0, -7));
  EXPECT_EQ(tolerance_tau(ElemType::F32), std::ldexp(1.0, -13));
  EXPECT_EQ(tolerance_tau(ElemType::I32), 0.0);
}

TEST(Gate, ExactReferencePassesForEveryFloatDtype) {
  const auto ref = uniform(1000, -3, 3, 1);
  for (ElemType t : {ElemType::F16, ElemType::BF16, ElemType::F32}) {
    auto r = gate(buffer(t, ref), ref);
    EXPECT_TRUE(r.pass) << info(t).name << ": " << r.reason;
    EXPECT_FALSE(r.relaxed);
  }
}

// One element at 1.0 off by k ulps: for fp16 one ulp there is exactly tau, so the max
// screen (10 tau) accepts 9 ulps and rejects 11.
TEST(Gate, MaxScreenCountsUlpsOfOneElement) {
  std::vector<double> ref(1000, 1.5);
  ref[7] = 1.0;
  EXPECT_TRUE(gate(off_by_ulps(ElemType::F16, ref, 7, 9), ref).pass);
  auto bad = gate(off_by_ulps(ElemType::F16, ref, 7, 11), ref);
  EXPECT_FALSE(bad.pass);
  EXPECT_EQ(bad.worst_index, 7);
  EXPECT_NE(bad.reason.find("max relative error"), std::string::npos) << bad.reason;
  // bf16: one ulp at 1.0 is 2^-7 = tau as well.
  EXPECT_TRUE(gate(off_by_ulps(ElemType::BF16, ref, 7, 9), ref).pass);
  EXPECT_FALSE(gate(off_by_ulps(ElemType::BF16, ref, 7, 11), ref).pass);
}

// Every element off by 2^11 fp32 ulps at 1.0 (relative error 2^-12): below 10 tau,
// but the mean reaches 2 tau.
TEST(Gate, MeanScreenCatchesSystematicBias) {
  std::vector<double> ref(500, 1.0);
  TypedBuffer a = buffer(ElemType::F32, ref);
  for (size_t i = 0; i < a.count; ++i) a.set(i, 1.0 + std::ldexp(1.0, -12));
  auto r = gate(a, ref);
  EXPECT_FALSE(r.pass);
  EXPECT_NE(r.reason.find("mean relative error"), std::string::npos) << r.reason;
  EXPECT_LT(r.max_rel, 10 * r.tau);
}

TEST(Gate, ReferenceIsCastToOutputDtypeFirst) {
  // 1 + 2^-12 is not an fp16 number; the fp16 reference is 1.0, so 1.0 is exact.
  std::vector<double> ref(16, 1.0 + std::ldexp(1.0, -12));
  auto r = gate(buffer(ElemType::F16, std::vector<double>(16, 1.0)), ref);
  EXPECT_TRUE(r.pass);
  EXPECT_EQ(r.max_rel, 0.0);
}

TEST(Gate, NanPositionsMustMatch) {
  std::vector<double> ref = {1, kNan, 3, 4};
  EXPECT_TRUE(gate(buffer(ElemType::F32, ref), ref).pass);
  auto extra = gate(buffer(ElemType::F32, {1, kNan, kNan, 4}), ref);  // NaN where none is due
  EXPECT_FALSE(extra.pass);
  EXPECT_EQ(extra.nan_mismatch, 1);
  EXPECT_EQ(extra.worst_index, 2);
  auto missing = gate(buffer(ElemType::F32, {1, 2, 3, 4}), ref);      // a due NaN replaced by a number
  EXPECT_FALSE(missing.pass);
  EXPECT_EQ(missing.nan_mismatch, 1);
}

TEST(Gate, EqualInfinitiesAreExcludedWrongSignFails) {
  std::vector<double> ref = {kInf, -kInf, 2, 3};
  auto same = gate(buffer(ElemType::F16, ref), ref);
  EXPECT_TRUE(same.pass);
  EXPECT_EQ(same.compared, 2);
  auto flipped = gate(buffer(ElemType::F16, {-kInf, -kInf, 2, 3}), ref);
  EXPECT_FALSE(flipped.pass);
  EXPECT_EQ(flipped.inf_mismatch, 1);
  EXPECT_NE(flipped.reason.find("wrong sign"), std::string::npos);
}

TEST(Gate, OneSidedInfinityIsJudgedAsMaxFinite) {
  // 70000 overflows fp16: the reference becomes +inf and is judged as 65504.
  std::vector<double> ref = {70000.0, 1.0};
  EXPECT_TRUE(gate(buffer(ElemType::F16, {65504.0, 1.0}), ref).pass);
  EXPECT_FALSE(gate(buffer(ElemType::F16, {1.0, 1.0}), ref).pass);
  // A kernel overflowing where the reference is finite and small fails.
  EXPECT_FALSE(gate(buffer(ElemType::F16, {1.0, kInf}), {1.0, 1.0}).pass);
}

TEST(Gate, IntegersExactUnlessBoundedToleranceDeclared) {
  std::vector<double> ref = {1, 2, 3, 40};
  EXPECT_TRUE(gate(buffer(ElemType::I32, ref), ref).pass);
  TypedBuffer off = buffer(ElemType::I32, {1, 2, 3, 41});
  auto exact = gate(off, ref);
  EXPECT_FALSE(exact.pass);
  EXPECT_EQ(exact.worst_index, 3);
  auto bounded = gate(off, ref, Tolerance(1.0, 1.0));
  EXPECT_TRUE(bounded.pass);
  EXPECT_TRUE(bounded.relaxed);
  EXPECT_FALSE(gate(buffer(ElemType::I32, {1, 2, 3, 42}), ref, Tolerance(1.0, 1.0)).pass);
}

TEST(Gate, RelaxationWidensTauAndIsReported) {
  std::vector<double> ref(1000, 1.0);
  TypedBuffer a = buffer(ElemType::F16, ref);
  for (size_t i = 0; i < a.count; i += 2) a.set(i, 1.0 + 3 * std::ldexp(1.0, -10));  // mean error 1.5 tau
  EXPECT_FALSE(gate(a, ref).pass);
  auto relaxed = gate(a, ref, Tolerance(2.0));
  EXPECT_TRUE(relaxed.pass) << relaxed.reason;
  EXPECT_TRUE(relaxed.relaxed);
  EXPECT_EQ(relaxed.tau, 2 * std::ldexp(1.0, -10));
  // A relaxed package whose output meets the plain limits is not reported as relaxed.
  EXPECT_FALSE(gate(buffer(ElemType::F16, ref), ref, Tolerance(2.0)).relaxed);
}

// A kernel returning a constant (or zeros, or one input element everywhere) fails every
// non-degenerate case: every value range, every float dtype.
TEST(Gate, ConstantAndZeroOutputsFail) {
  const std::vector<std::pair<double, double>> ranges = {{-1, 1}, {-1e-3, 1e-3}, {0.01, 10}, {-1000, 1000}, {-0.5, 4}};
  uint64_t seed = 3;
  for (ElemType t : {ElemType::F16, ElemType::BF16, ElemType::F32}) {
    for (auto [lo, hi] : ranges) {
      const auto ref = uniform(4096, lo, hi, ++seed);
      const double mid = round_to(t, (lo + hi) / 2);
      const TypedBuffer zeros = buffer(t, std::vector<double>(ref.size(), 0.0));
      const TypedBuffer constant = buffer(t, std::vector<double>(ref.size(), mid));
      const TypedBuffer first = buffer(t, std::vector<double>(ref.size(), ref[0]));
      const std::vector<double> cpu(ref.begin(), ref.end());  // a perfect CPU baseline for the fallback
      for (const TypedBuffer* a : {&zeros, &constant, &first})
        EXPECT_FALSE(gate(*a, ref, {}, &cpu).pass) << info(t).name << " [" << lo << "," << hi << ")";
    }
  }
}

TEST(Gate, UnwrittenOutputFails) {
  TypedBuffer never(ElemType::F32, 8);
  std::fill(never.bytes.begin(), never.bytes.end(), 0xFF);
  auto r = gate(never, std::vector<double>(8, 1.0));
  EXPECT_FALSE(r.pass);
  EXPECT_EQ(r.poisoned, 8);
}

// 0xFF bytes read as -1 in int8: an output whose every reference is -1 is right whether the
// kernel wrote it or not, and is not reported as never written; any other reference is.
TEST(Gate, PoisonBytesThatAreTheReferenceAreNotUnwritten) {
  TypedBuffer all_ff(ElemType::I8, 2);
  std::fill(all_ff.bytes.begin(), all_ff.bytes.end(), 0xFF);
  auto right = gate(all_ff, {-1.0, -1.0});
  EXPECT_TRUE(right.pass) << right.reason;
  EXPECT_EQ(right.poisoned, 0);
  auto wrong = gate(all_ff, {3.0, -1.0});
  EXPECT_FALSE(wrong.pass);
  EXPECT_EQ(wrong.poisoned, 1);
  auto never = gate(all_ff, {3.0, 2.0});
  EXPECT_FALSE(never.pass);
  EXPECT_NE(never.reason.find("never written"), std::string::npos) << never.reason;
}

// Small-value region: references below 2^-14 (fp32) where the kernel's absolute error
// exceeds 2^-30. The fallback accepts up to twice the same-precision CPU's count.
TEST(Gate, SmallValueFallbackUsesTwiceTheCpuCount) {
  std::vector<double> ref(1000, 1.0);
  for (size_t i = 0; i < 10; ++i) ref[i] = std::ldexp(1.0, -20);
  TypedBuffer a = buffer(ElemType::F32, ref);
  for (size_t i = 0; i < 4; ++i) a.set(i, std::ldexp(1.0, -20) + std::ldexp(1.0, -26));  // 4 errors, 6% relative
  std::vector<double> cpu = ref;
  for (size_t i = 0; i < 2; ++i) cpu[i] += std::ldexp(1.0, -26);  // the CPU in float errs twice
  EXPECT_FALSE(gate(a, ref).pass);  // no baseline: the first screen decides
  auto ok = gate(a, ref, {}, &cpu);
  EXPECT_TRUE(ok.pass) << ok.reason;
  EXPECT_TRUE(ok.fallback_used);
  EXPECT_EQ(ok.small_errors, 4);
  EXPECT_EQ(ok.small_cpu_errors, 2);
  a.set(4, std::ldexp(1.0, -20) + std::ldexp(1.0, -26));  // 5 > 2 * 2
  auto bad = gate(a, ref, {}, &cpu);
  EXPECT_FALSE(bad.pass);
  EXPECT_NE(bad.reason.find("small-value region"), std::string::npos) << bad.reason;
}

// Cancellation region: |y| between the small threshold and 2^-8 (fp32) with |y_hat|
// below 2^-8. The kernel's count is judged against twice the CPU's (at least 2) as a Poisson
// count: with a perfect CPU, 8 errors pass (P = 0.0011 that a mean of 2 reaches 8) and 9 fail
// (P = 0.00024); with 10 CPU errors, 35 pass and 36 fail.
TEST(Gate, CancellationFallbackAndLimitsOutsideTheRegions) {
  const double inside = std::ldexp(1.0, -10), wrong = std::ldexp(1.5, -10);
  std::vector<double> ref(1000, 1.0);
  for (size_t i = 0; i < 50; ++i) ref[i] = inside;
  const std::vector<double> cpu = ref;
  TypedBuffer a = buffer(ElemType::F32, ref);
  for (size_t i = 0; i < 8; ++i) a.set(i, wrong);
  auto ok = gate(a, ref, {}, &cpu);
  EXPECT_TRUE(ok.pass) << ok.reason;
  EXPECT_EQ(ok.cancel_errors, 8);
  EXPECT_EQ(ok.cancel_cpu_errors, 0);
  a.set(8, wrong);
  auto bad = gate(a, ref, {}, &cpu);
  EXPECT_FALSE(bad.pass);
  EXPECT_NE(bad.reason.find("9 errors in the cancellation region"), std::string::npos) << bad.reason;

  std::vector<double> cpu10 = ref;
  for (size_t i = 0; i < 10; ++i) cpu10[i] = wrong;
  TypedBuffer b = buffer(ElemType::F32, ref);
  for (size_t i = 0; i < 35; ++i) b.set(i, wrong);
  auto ok10 = gate(b, ref, {}, &cpu10);
  EXPECT_TRUE(ok10.pass) << ok10.reason;
  EXPECT_EQ(ok10.cancel_cpu_errors, 10);
  b.set(35, wrong);
  EXPECT_FALSE(gate(b, ref, {}, &cpu10).pass);

  // A value that is not small is outside the region and never excused by the fallback.
  TypedBuffer big = buffer(ElemType::F32, ref);
  big.set(0, 0.5);
  EXPECT_FALSE(gate(big, ref, {}, &cpu).pass);
  TypedBuffer outside = buffer(ElemType::F32, ref);
  outside.set(500, 1.01);
  auto r = gate(outside, ref, {}, &cpu);
  EXPECT_FALSE(r.pass);
  EXPECT_TRUE(r.fallback_used);
  EXPECT_NE(r.reason.find("outside the small-value and cancellation regions"), std::string::npos) << r.reason;
}

// Ill-conditioned elements: outside both regions, where the same-precision CPU computation is
// itself off by 10 tau or more (an fp32 layer norm of a row of near-equal values), the kernel may
// be at most twice as wrong as that computation; everywhere else the first screen's limits hold.
TEST(Gate, IllConditionedElementsAllowTwiceTheCpuError) {
  std::vector<double> ref(1000, 1.0);
  const double tau = std::ldexp(1.0, -13);
  std::vector<double> cpu = ref;
  cpu[7] = 1.0 + 12.0 * tau;  // the CPU in float is off by 12 tau at [7]
  TypedBuffer a = buffer(ElemType::F32, ref);
  a.set(7, 1.0 + 16.0 * tau);  // the kernel by 16 tau: fails the first screen, within twice the CPU
  EXPECT_FALSE(gate(a, ref).pass);
  auto ok = gate(a, ref, {}, &cpu);
  EXPECT_TRUE(ok.pass) << ok.reason;
  EXPECT_TRUE(ok.fallback_used);
  EXPECT_EQ(ok.illcond_elements, 1);
  EXPECT_EQ(ok.illcond_errors, 0);
  a.set(7, 1.0 + 30.0 * tau);  // more than twice the CPU's error
  auto bad = gate(a, ref, {}, &cpu);
  EXPECT_FALSE(bad.pass);
  EXPECT_EQ(bad.illcond_errors, 1);
  EXPECT_EQ(bad.worst_index, 7);
  EXPECT_NE(bad.reason.find("more than twice as wrong"), std::string::npos) << bad.reason;
  // The same kernel error where the CPU is right is never excused.
  TypedBuffer elsewhere = buffer(ElemType::F32, ref);
  elsewhere.set(8, 1.0 + 16.0 * tau);
  auto r = gate(elsewhere, ref, {}, &cpu);
  EXPECT_FALSE(r.pass);
  EXPECT_EQ(r.worst_index, 8);
  EXPECT_NE(r.reason.find("outside the small-value and cancellation regions"), std::string::npos) << r.reason;
}

// compare_outputs asks for the same-precision golden (a second golden run, which the callers
// defer until first asked) only for an output that fails the first screen, and hands it to the
// fallback.
TEST(Gate, SamePrecisionGoldenIsRunOnlyForAFailingOutput) {
  std::vector<double> ref(1000, 1.0);
  for (size_t i = 0; i < 10; ++i) ref[i] = std::ldexp(1.0, -20);
  TypedBuffer exact = buffer(ElemType::F32, ref);
  TypedBuffer small_errors = exact;
  for (size_t i = 0; i < 4; ++i) small_errors.set(i, std::ldexp(1.0, -20) + std::ldexp(1.0, -26));
  std::vector<std::vector<double>> cpu(3, ref);
  for (size_t i = 0; i < 2; ++i) cpu[1][i] = cpu[2][i] = ref[i] + std::ldexp(1.0, -26);
  int runs = 0;
  auto same_precision = [&]() -> const std::vector<std::vector<double>>* {
    ++runs;
    return &cpu;
  };
  const std::vector<std::vector<double>> golden(3, ref);
  auto all_pass = compare_outputs({exact, exact, exact}, golden, {}, 0xFF, same_precision);
  EXPECT_EQ(runs, 0);
  for (const auto& r : all_pass) EXPECT_TRUE(r.pass && !r.fallback_used);
  auto two_fail = compare_outputs({exact, small_errors, small_errors}, golden, {}, 0xFF, same_precision);
  EXPECT_EQ(runs, 2);
  EXPECT_TRUE(two_fail[0].pass && !two_fail[0].fallback_used);
  EXPECT_TRUE(two_fail[1].pass && two_fail[1].fallback_used) << two_fail[1].reason;
  EXPECT_TRUE(two_fail[2].pass && two_fail[2].fallback_used) << two_fail[2].reason;
  // Without a same-precision golden the first screen's verdict stands.
  auto alone = compare_outputs({small_errors}, {ref}, {}, 0xFF, [] { return nullptr; });
  EXPECT_FALSE(alone[0].pass);
}

namespace {

// Every statistic and the verdict of two comparisons.
void expect_same(const CompareResult& a, const CompareResult& b, const char* what) {
  EXPECT_EQ(a.pass, b.pass) << what;
  EXPECT_EQ(a.reason, b.reason) << what;
  EXPECT_EQ(std::memcmp(&a.max_rel, &b.max_rel, sizeof(double)), 0) << what << ": " << a.max_rel << " " << b.max_rel;
  EXPECT_EQ(std::memcmp(&a.mean_rel, &b.mean_rel, sizeof(double)), 0) << what;
  EXPECT_EQ(a.worst_index, b.worst_index) << what;
  EXPECT_EQ(std::memcmp(&a.worst_actual, &b.worst_actual, sizeof(double)), 0) << what;
  EXPECT_EQ(std::memcmp(&a.worst_expected, &b.worst_expected, sizeof(double)), 0) << what;
  EXPECT_EQ(a.nan_mismatch, b.nan_mismatch) << what;
  EXPECT_EQ(a.inf_mismatch, b.inf_mismatch) << what;
  EXPECT_EQ(a.poisoned, b.poisoned) << what;
  EXPECT_EQ(a.compared, b.compared) << what;
}

}  // namespace

// The evaluator rounds a reference to the output dtype once (round_reference) and compares
// without rounding again; the outcome must be the one of rounding per element: exact
// matches, ulp errors, gross errors, NaN, infinities of both signs, values beyond the dtype's
// range, poisoned elements, integers that saturate.
TEST(Gate, APreRoundedReferenceGivesTheSameJudgement) {
  aoc::base::Xoshiro256 rng(11);
  for (ElemType t : {ElemType::F16, ElemType::BF16, ElemType::F32, ElemType::I8, ElemType::I32}) {
    for (int round = 0; round < 20; ++round) {
      const size_t n = 3000;
      std::vector<double> golden = uniform(n, -300.0, 300.0, 100 + round);
      TypedBuffer actual = buffer(t, golden);
      const size_t bytes = info(t).bytes;
      for (size_t i = 0; i < n; ++i) {
        const uint64_t k = rng.next() % 64;
        if (k == 0) golden[i] = kNan;
        else if (k == 1) golden[i] = (rng.next() & 1) ? kInf : -kInf;
        else if (k == 2) golden[i] = 1e40;  // beyond every dtype but double
        else if (k == 3) actual.set(i, kNan);
        else if (k == 4) actual.set(i, -kInf);
        else if (k == 5) std::memset(actual.bytes.data() + i * bytes, kPoisonByte, bytes);
        else if (k < 10 + round) actual.set(i, actual.get(i) * (1.0 + rng.uniform(-0.01, 0.01)));
      }
      std::vector<double> rounded = golden;
      round_reference(t, rounded);
      const CompareResult per_element = compare_output(actual, golden, Tolerance{}, kPoisonByte);
      const CompareResult pre_rounded = compare_output(actual, rounded, Tolerance{}, kPoisonByte, nullptr, true);
      expect_same(per_element, pre_rounded, "mixed");
      // Without the special values, passing and failing comparisons alike.
      const std::vector<double> clean = uniform(n, -2.0, 2.0, 500 + round);
      TypedBuffer close = buffer(t, clean);
      for (size_t i = 0; i < n; i += 7) close.set(i, close.get(i) * (1.0 + 0.0005 * round));
      std::vector<double> clean_rounded = clean;
      round_reference(t, clean_rounded);
      expect_same(compare_output(close, clean, Tolerance{}, kPoisonByte),
                  compare_output(close, clean_rounded, Tolerance{}, kPoisonByte, nullptr, true), "clean");
    }
  }
}

namespace {

// The statistics of the first screen straight from their definitions, element by element with
// no shortcut: what compare_output must give.
CompareResult by_definition(const TypedBuffer& actual, const std::vector<double>& rounded) {
  CompareResult r;
  const bool is_float = info(actual.type).is_float;
  const double big = max_finite(actual.type);
  double sum = 0.0;
  for (size_t i = 0; i < actual.count; ++i) {
    double a = actual.get(i), y = rounded[i];
    const unsigned char* raw = actual.bytes.data() + i * info(actual.type).bytes;
    bool all_poison = true;
    for (size_t b = 0; b < info(actual.type).bytes; ++b) all_poison = all_poison && raw[b] == kPoisonByte;
    if (all_poison && !std::isnan(y) && a != y) ++r.poisoned;
    if (std::isnan(a) || std::isnan(y)) {
      r.nan_mismatch += std::isnan(a) != std::isnan(y);
      continue;
    }
    if (std::isinf(a) && std::isinf(y)) {
      r.inf_mismatch += (a > 0) != (y > 0);
      continue;
    }
    if (std::isinf(a)) a = std::copysign(big, a);
    if (std::isinf(y)) y = std::copysign(big, y);
    const double e = is_float ? std::fabs(a - y) / (std::fabs(y) + 1e-7) : std::fabs(a - y);
    sum += e;
    ++r.compared;
    if (e > r.max_rel || r.worst_index < 0) {
      r.max_rel = std::max(r.max_rel, e);
      r.worst_index = static_cast<int64_t>(i);
      r.worst_actual = a;
      r.worst_expected = y;
    }
  }
  r.mean_rel = r.compared ? sum / static_cast<double>(r.compared) : 0.0;
  return r;
}

void expect_statistics(const CompareResult& want, const CompareResult& got, const std::string& what) {
  EXPECT_EQ(std::memcmp(&want.max_rel, &got.max_rel, sizeof(double)), 0) << what << ": " << want.max_rel << " " << got.max_rel;
  EXPECT_EQ(std::memcmp(&want.mean_rel, &got.mean_rel, sizeof(double)), 0) << what << ": " << want.mean_rel << " " << got.mean_rel;
  EXPECT_EQ(want.compared, got.compared) << what;
  EXPECT_EQ(want.poisoned, got.poisoned) << what;
  EXPECT_EQ(want.nan_mismatch, got.nan_mismatch) << what;
  EXPECT_EQ(want.inf_mismatch, got.inf_mismatch) << what;
  if (want.nan_mismatch + want.inf_mismatch > 0) return;  // the worst element is then the first mismatch
  EXPECT_EQ(want.worst_index, got.worst_index) << what;
  EXPECT_EQ(std::memcmp(&want.worst_actual, &got.worst_actual, sizeof(double)), 0) << what;
  EXPECT_EQ(std::memcmp(&want.worst_expected, &got.worst_expected, sizeof(double)), 0) << what;
}

}  // namespace

// Most elements of a right output equal their reference, and the comparison takes a short way
// for them; the statistics must still be those of the definition, bit for bit: outputs exact
// but for a few elements, starting with an exact or an inexact element, with signed zeros,
// equal and opposite infinities, NaN and poison among the exact ones, in every dtype.
TEST(Gate, ExactElementsTakeTheShortWayWithTheSameStatistics) {
  aoc::base::Xoshiro256 rng(23);
  for (ElemType t : {ElemType::F16, ElemType::BF16, ElemType::F32, ElemType::I8, ElemType::I32}) {
    for (int round = 0; round < 12; ++round) {
      const size_t n = 2000;
      std::vector<double> golden = uniform(n, -50.0, 50.0, 900 + round);
      round_reference(t, golden);
      TypedBuffer actual = buffer(t, golden);
      const size_t bytes = info(t).bytes;
      for (size_t i = 0; i < n; ++i) {
        const uint64_t k = rng.next() % 200;
        if (k == 0) golden[i] = kNan, actual.set(i, kNan);
        else if (k == 1) golden[i] = kInf, actual.set(i, kInf);
        else if (k == 2) golden[i] = -kInf, actual.set(i, kInf);
        else if (k == 3) golden[i] = 0.0, actual.set(i, -0.0);
        else if (k == 4) std::memset(actual.bytes.data() + i * bytes, kPoisonByte, bytes);
        else if (k < 5 + static_cast<uint64_t>(round)) actual.set(i, actual.get(i) * (1.0 + rng.uniform(-0.01, 0.01)));
      }
      if (round % 2 == 1) actual.set(0, actual.get(0) + 1.0);  // the first element inexact
      round_reference(t, golden);
      const std::string what = std::string(info(t).name) + " round " + std::to_string(round);
      expect_statistics(by_definition(actual, golden),
                        compare_output(actual, golden, Tolerance{}, kPoisonByte, nullptr, true), what);
      expect_statistics(by_definition(actual, golden), compare_output(actual, golden, Tolerance{}, kPoisonByte), what);
    }
  }
}
