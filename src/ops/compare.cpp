#include "ops/compare.h"

#include <cmath>
#include <sstream>

namespace aoc::op {

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

CompareResult compare_output(const TypedBuffer& actual, const std::vector<double>& golden, double relax,
                             unsigned char poison_byte) {
  CompareResult r;
  const ElemInfo& ei = info(actual.type);
  r.tau = tolerance_tau(actual.type) * relax;
  const double big = max_finite(actual.type);
  double sum = 0.0;
  int64_t first_bad = -1;
  for (size_t i = 0; i < actual.count && i < golden.size(); ++i) {
    const unsigned char* raw = actual.bytes.data() + i * ei.bytes;
    if (all_bytes(raw, ei.bytes, poison_byte)) ++r.poisoned;
    double a = actual.get(i);
    double y = round_to(actual.type, golden[i]);
    if (std::isnan(a) || std::isnan(y)) {
      if (std::isnan(a) != std::isnan(y)) {
        ++r.nan_mismatch;
        if (first_bad < 0) first_bad = static_cast<int64_t>(i);
      }
      continue;
    }
    if (std::isinf(a) || std::isinf(y)) {
      if (std::isinf(a) && std::isinf(y)) {
        if ((a > 0) != (y > 0)) {
          ++r.inf_mismatch;
          if (first_bad < 0) first_bad = static_cast<int64_t>(i);
        }
        continue;  // equal-signed infinities are excluded from the statistics
      }
      // One-sided infinity: judge it as the largest finite value of the dtype.
      if (std::isinf(a)) a = std::copysign(big, a);
      else y = std::copysign(big, y);
    }
    const double e = ei.is_float ? std::fabs(a - y) / (std::fabs(y) + 1e-7) : (a == y ? 0.0 : std::fabs(a - y));
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
  std::ostringstream why;
  if (actual.count != golden.size()) {
    why << "output has " << actual.count << " elements, reference " << golden.size();
  } else if (r.poisoned > 0 && r.poisoned == static_cast<int64_t>(actual.count)) {
    why << "output never written (all " << r.poisoned << " elements hold the poison pattern)";
  } else if (r.nan_mismatch > 0) {
    why << r.nan_mismatch << " NaN mismatches (first at flat index " << first_bad << ")";
  } else if (r.inf_mismatch > 0) {
    why << r.inf_mismatch << " infinities of the wrong sign (first at flat index " << first_bad << ")";
  } else if (ei.is_float && !(r.mean_rel < r.tau)) {
    why << "mean relative error " << r.mean_rel << " >= tau " << r.tau;
  } else if (ei.is_float && !(r.max_rel < 10.0 * r.tau)) {
    why << "max relative error " << r.max_rel << " >= 10*tau " << 10.0 * r.tau;
  } else if (!ei.is_float && r.max_rel > 0.0) {
    why << "integer output differs (max abs difference " << r.max_rel << ")";
  }
  r.reason = why.str();
  r.pass = r.reason.empty();
  if (!r.pass && r.worst_index < 0) r.worst_index = first_bad;
  if (r.nan_mismatch + r.inf_mismatch > 0 && first_bad >= 0 && r.max_rel < 10.0 * r.tau) {
    r.worst_index = first_bad;
    r.worst_actual = actual.get(static_cast<size_t>(first_bad));
    r.worst_expected = round_to(actual.type, golden[static_cast<size_t>(first_bad)]);
  }
  return r;
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

}  // namespace aoc::op
