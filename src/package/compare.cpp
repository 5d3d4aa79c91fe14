#include "package/compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace aoc::package {

double tolerance_tau(ElemType t) {
  switch (t) {
    case ElemType::F16: return std::ldexp(1.0, -10);
    case ElemType::BF16: return std::ldexp(1.0, -7);
    case ElemType::F32: return std::ldexp(1.0, -13);
    default: return 0.0;
  }
}

namespace {

bool all_bytes(const unsigned char* p, size_t n, unsigned char b) {
  for (size_t i = 0; i < n; ++i)
    if (p[i] != b) return false;
  return true;
}

}  // namespace

namespace {

// Region thresholds of the fallback screen (evaluation.md section 3).
struct Regions {
  double small;         // |reference| below this: small-value region
  double small_atol;    // an error there is an absolute difference above this
  double cancel;        // |kernel| and |reference| below this: cancellation region
};

Regions regions_for(ElemType t) {
  switch (t) {
    case ElemType::F16: return {std::ldexp(1.0, -11), std::ldexp(1.0, -16), std::ldexp(1.0, -5)};
    case ElemType::BF16: return {std::ldexp(1.0, -8), std::ldexp(1.0, -16), std::ldexp(1.0, -3)};
    default: return {std::ldexp(1.0, -14), std::ldexp(1.0, -30), std::ldexp(1.0, -8)};
  }
}

double rel_err(double a, double y) { return std::fabs(a - y) / (std::fabs(y) + 1e-7); }

// Probability that a Poisson count of mean `mean` reaches `k`, summed from k upward in log
// space (k and mean can be hundreds of thousands of elements).
double poisson_tail(int64_t k, double mean) {
  if (static_cast<double>(k) <= mean) return 1.0;  // at or below the mean: never significant
  const double log_mean = std::log(mean);
  double tail = 0.0;
  for (int64_t i = k;; ++i) {
    const double term = std::exp(-mean + static_cast<double>(i) * log_mean - std::lgamma(static_cast<double>(i) + 1.0));
    tail += term;
    if (term <= tail * 1e-12) break;  // terms fall geometrically once i > mean
  }
  return tail;
}

// The cancellation region's errors are rare events among elements that are all close to zero
// (a few ulps on a near-zero output), so their count is a Poisson count: "at most twice the
// same-precision computation's count" is judged as a test, failing when a kernel with twice
// that error rate makes this many errors with probability below 1e-3. With counts of 1 and 3
// the literal ratio fails a correct fp32 layer norm on some draws; a kernel computing in lower
// precision makes hundreds there and still fails. The region requires |kernel| small too, so
// the slack never excuses a wrong value.
bool more_than_twice_beyond_chance(int64_t kernel, int64_t cpu) {
  const double allowed_mean = 2.0 * static_cast<double>(std::max<int64_t>(cpu, 1));
  return static_cast<double>(kernel) > allowed_mean && poisson_tail(kernel, allowed_mean) < 1e-3;
}

// Second chance when the first screen fails on floats: outside the two regions the
// first screen's limits still hold; inside them the kernel may err at most twice as
// often as a same-precision CPU computation (at least twice). Outside the regions, an
// element the same-precision computation itself gets wrong by 10 tau or more is
// ill-conditioned in that precision (a layer norm of a near-constant row): there the kernel
// may err at most twice as much as that computation, and the element leaves the mean and max.
void fallback_screen(CompareResult& r, const TypedBuffer& actual, const std::vector<double>& golden,
                     const std::vector<double>& cpu) {
  const Regions g = regions_for(actual.type);
  const double big = max_finite(actual.type);
  double sum = 0.0;
  int64_t normal = 0;
  double normal_max = 0.0;
  int64_t normal_worst = -1;
  int64_t illcond_first = -1;
  for (size_t i = 0; i < actual.count; ++i) {
    double a = actual.get(i), y = round_to(actual.type, golden[i]), c = round_to(actual.type, cpu[i]);
    if (std::isnan(a) || std::isnan(y)) continue;  // NaN agreement was settled by the first screen
    if (std::isinf(a) && std::isinf(y)) continue;
    if (std::isinf(a)) a = std::copysign(big, a);
    if (std::isinf(y)) y = std::copysign(big, y);
    if (!std::isfinite(c)) c = std::copysign(big, c);
    const double ay = std::fabs(y);
    if (ay < g.small) {
      r.small_errors += std::fabs(a - y) > g.small_atol;
      r.small_cpu_errors += std::fabs(c - y) > g.small_atol;
    } else if (ay < g.cancel && std::fabs(a) < g.cancel) {
      r.cancel_errors += rel_err(a, y) >= 10.0 * r.tau;
      r.cancel_cpu_errors += rel_err(c, y) >= 10.0 * r.tau;
    } else {
      const double e = rel_err(a, y);
      const double e_cpu = rel_err(c, y);
      if (e_cpu >= 10.0 * r.tau) {
        ++r.illcond_elements;
        if (e > 2.0 * e_cpu && r.illcond_errors++ == 0) illcond_first = static_cast<int64_t>(i);
        continue;
      }
      sum += e;
      ++normal;
      if (e > normal_max) { normal_max = e; normal_worst = static_cast<int64_t>(i); }
    }
  }
  std::ostringstream why;
  const double normal_mean = normal ? sum / static_cast<double>(normal) : 0.0;
  if (!(normal_mean < r.tau)) why << "mean relative error " << normal_mean << " >= tau " << r.tau
                                  << " outside the small-value and cancellation regions";
  else if (!(normal_max < 10.0 * r.tau)) why << "max relative error " << normal_max << " >= 10*tau " << 10.0 * r.tau
                                             << " outside the small-value and cancellation regions";
  else if (r.illcond_errors > 0)
    why << r.illcond_errors << " of the " << r.illcond_elements
        << " elements a same-precision CPU computation gets wrong by 10*tau or more are more than twice as wrong";
  else if (r.small_errors > 2 * std::max<int64_t>(r.small_cpu_errors, 1))
    why << r.small_errors << " errors in the small-value region, more than twice the " << r.small_cpu_errors
        << " of a same-precision CPU computation";
  else if (more_than_twice_beyond_chance(r.cancel_errors, r.cancel_cpu_errors))
    why << r.cancel_errors << " errors in the cancellation region, more than twice the " << r.cancel_cpu_errors
        << " of a same-precision CPU computation beyond chance (p < 0.001)";
  if (why.str().empty()) {
    r.pass = true;
    r.reason.clear();
  } else {
    r.reason = why.str();
    int64_t worst = -1;
    if (normal_worst >= 0 && normal_max >= 10.0 * r.tau) worst = normal_worst;
    else if (r.illcond_errors > 0) worst = illcond_first;
    if (worst >= 0) {
      r.worst_index = worst;
      r.worst_actual = actual.get(static_cast<size_t>(worst));
      r.worst_expected = round_to(actual.type, golden[static_cast<size_t>(worst)]);
    }
  }
}

}  // namespace

CompareResult compare_output(const TypedBuffer& actual, const std::vector<double>& golden, const Tolerance& tol,
                             unsigned char poison_byte, const std::vector<double>* cpu_same_precision,
                             bool golden_rounded) {
  CompareResult r;
  const ElemInfo& ei = info(actual.type);
  r.tau = ei.is_float ? tolerance_tau(actual.type) * tol.relax : tol.integer_atol;
  const double big = max_finite(actual.type);
  double sum = 0.0;
  int64_t first_bad = -1;
  // The statistics live in locals while the loop runs (members of `r` would be stored back on
  // every element), and an element equal to its reference skips the division: its error is 0
  // exactly, as the formula gives.
  double max_rel = 0.0;
  int64_t worst_index = -1, compared = 0, poisoned = 0, nan_mismatch = 0, inf_mismatch = 0;
  double worst_actual = 0.0, worst_expected = 0.0;
  visit_elem_type(actual.type, [&](auto codec) {
    using C = decltype(codec);
    const size_t n = std::min(actual.count, golden.size());
    const unsigned char* bytes = actual.bytes.data();
    const double* ref = golden.data();
    for (size_t i = 0; i < n; ++i) {
      const unsigned char* raw = bytes + i * C::bytes;
      double a = C::load(raw);
      double y = golden_rounded ? ref[i] : round_through<C>(ref[i]);
      // The common element of a right output: finite and equal to its reference. Its error is 0,
      // which changes neither the sum nor the maximum once a worst element is set, and the
      // poison test below needs a != y: only the count moves.
      if (a == y && worst_index >= 0 && std::isfinite(y)) {
        ++compared;
        continue;
      }
      // The poison bytes are a NaN of every float type: where the reference is NaN too, a
      // kernel that wrote that NaN cannot be told from one that wrote nothing, and either is right.
      // The same holds where they read as the reference itself (-1 in int8, 255 in uint8).
      if (all_bytes(raw, C::bytes, poison_byte) && !std::isnan(y) && a != y) ++poisoned;
      if (std::isnan(a) || std::isnan(y)) {
        if (std::isnan(a) != std::isnan(y)) {
          ++nan_mismatch;
          if (first_bad < 0) first_bad = static_cast<int64_t>(i);
        }
        continue;
      }
      if (std::isinf(a) || std::isinf(y)) {
        if (std::isinf(a) && std::isinf(y)) {
          if ((a > 0) != (y > 0)) {
            ++inf_mismatch;
            if (first_bad < 0) first_bad = static_cast<int64_t>(i);
          }
          continue;  // equal-signed infinities are excluded from the statistics
        }
        // One-sided infinity: judge it as the largest finite value of the dtype.
        if (std::isinf(a)) a = std::copysign(big, a);
        else y = std::copysign(big, y);
      }
      const double e = a == y ? 0.0 : ei.is_float ? std::fabs(a - y) / (std::fabs(y) + 1e-7) : std::fabs(a - y);
      sum += e;
      ++compared;
      if (e > max_rel || worst_index < 0) {
        max_rel = std::max(max_rel, e);
        worst_index = static_cast<int64_t>(i);
        worst_actual = a;
        worst_expected = y;
      }
    }
  });
  r.max_rel = max_rel;
  r.worst_index = worst_index;
  r.worst_actual = worst_actual;
  r.worst_expected = worst_expected;
  r.compared = compared;
  r.poisoned = poisoned;
  r.nan_mismatch = nan_mismatch;
  r.inf_mismatch = inf_mismatch;
  r.mean_rel = r.compared ? sum / static_cast<double>(r.compared) : 0.0;
  std::ostringstream why;
  char poison_hex[8];
  std::snprintf(poison_hex, sizeof poison_hex, "0x%02X", poison_byte);
  if (actual.count != golden.size()) {
    why << "output has " << actual.count << " elements, reference " << golden.size();
  } else if (r.poisoned > 0 && r.poisoned == static_cast<int64_t>(actual.count)) {
    why << "output never written? (all " << r.poisoned << " elements hold the poison pattern, every byte " << poison_hex
        << ", the buffer was filled with, where the reference is a number; a kernel that writes NaNs of exactly "
        << "those bits reads the same)";
  } else if (r.nan_mismatch > 0) {
    why << r.nan_mismatch << " NaN mismatches (first at flat index " << first_bad << ")";
    if (r.poisoned > 0)
      why << ", " << r.poisoned << " of them hold the poison pattern, every byte " << poison_hex
          << " (never written, or NaNs of exactly those bits)";
  } else if (r.inf_mismatch > 0) {
    why << r.inf_mismatch << " infinities of the wrong sign (first at flat index " << first_bad << ")";
  } else if (ei.is_float && !(r.mean_rel < r.tau)) {
    why << "mean relative error " << r.mean_rel << " >= tau " << r.tau;
  } else if (ei.is_float && !(r.max_rel < 10.0 * r.tau)) {
    why << "max relative error " << r.max_rel << " >= 10*tau " << 10.0 * r.tau;
  } else if (!ei.is_float && r.max_rel > r.tau) {
    why << "integer output differs (max abs difference " << r.max_rel << ", allowed " << r.tau << ")";
  }
  r.reason = why.str();
  r.pass = r.reason.empty();
  const bool only_precision = r.nan_mismatch == 0 && r.inf_mismatch == 0 && actual.count == golden.size() &&
                              r.poisoned < static_cast<int64_t>(actual.count);
  if (!r.pass && ei.is_float && only_precision && cpu_same_precision != nullptr &&
      cpu_same_precision->size() == golden.size()) {
    r.fallback_used = true;
    fallback_screen(r, actual, golden, *cpu_same_precision);
  }
  if (r.pass) {
    // Relaxed when the unrelaxed limits would have failed it.
    const double tau0 = tolerance_tau(actual.type);
    r.relaxed = ei.is_float ? (tol.relax > 1.0 && !(r.mean_rel < tau0 && r.max_rel < 10.0 * tau0) && !r.fallback_used)
                            : r.max_rel > 0.0;
  }
  if (!r.pass && r.worst_index < 0) r.worst_index = first_bad;
  if (r.nan_mismatch + r.inf_mismatch > 0 && first_bad >= 0 && r.max_rel < 10.0 * r.tau) {
    r.worst_index = first_bad;
    r.worst_actual = actual.get(static_cast<size_t>(first_bad));
    r.worst_expected = round_to(actual.type, golden[static_cast<size_t>(first_bad)]);
  }
  return r;
}

void round_reference(ElemType type, std::vector<double>& golden) {
  visit_elem_type(type, [&](auto codec) {
    for (double& v : golden) v = round_through<decltype(codec)>(v);
  });
}

std::vector<CompareResult> compare_outputs(const std::vector<TypedBuffer>& actual,
                                           const std::vector<std::vector<double>>& golden, const Tolerance& tol,
                                           unsigned char poison_byte, const SamePrecisionOutputs& same_precision,
                                           bool golden_rounded) {
  std::vector<CompareResult> out;
  for (size_t o = 0; o < actual.size(); ++o) {
    out.push_back(compare_output(actual[o], golden.at(o), tol, poison_byte, nullptr, golden_rounded));
    if (out.back().pass || !same_precision) continue;
    const std::vector<std::vector<double>>* cpu = same_precision();
    if (cpu != nullptr && o < cpu->size())
      out.back() = compare_output(actual[o], golden[o], tol, poison_byte, &(*cpu)[o], golden_rounded);
  }
  return out;
}

std::string index_to_string(int64_t flat, const std::vector<int64_t>& shape) {
  if (flat < 0) return "-";
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = flat % shape[d];
    flat /= shape[d];
  }
  std::ostringstream os;
  os << "[";
  for (size_t d = 0; d < idx.size(); ++d) os << (d ? "," : "") << idx[d];
  os << "]";
  return os.str();
}

}  // namespace aoc::package
