#include "bank/features.h"

#include <algorithm>
#include <set>

namespace aoc::bank {
namespace {

bool pipe_field(const std::string& k) {
  return k.size() > 5 && k.compare(k.size() - 5, 5, "_time") == 0 && k != "aiv_time" && k != "aic_time";
}

// Elements of the first shape in "x=[2,3] y=[3]".
int64_t first_shape_elements(const std::string& shapes) {
  const size_t open = shapes.find('['), close = shapes.find(']');
  if (open == std::string::npos || close == std::string::npos || close < open) return 0;
  int64_t n = 1, cur = 0;
  bool digits = false;
  for (size_t i = open + 1; i <= close; ++i) {
    const char ch = shapes[i];
    if (ch >= '0' && ch <= '9') {
      cur = cur * 10 + (ch - '0');
      digits = true;
    } else if (digits) {
      n *= cur;
      cur = 0;
      digits = false;
    }
  }
  return n;
}

}  // namespace

std::string shape_class(int64_t elements) {
  if (elements < (int64_t(1) << 14)) return "small";
  if (elements < (int64_t(1) << 20)) return "medium";
  return "large";
}

std::map<std::string, double> mean_pipe_times(const aoc::eval::CandidateReport& r) {
  std::map<std::string, double> sum;
  size_t n = 0;
  for (const auto& c : r.cases) {
    if (c.profile.empty()) continue;
    ++n;
    for (const auto& [k, v] : c.profile)
      if (pipe_field(k)) sum[k] += v;
  }
  for (auto& [k, v] : sum) v /= double(n);
  return sum;
}

std::string busiest_pipe(const std::map<std::string, double>& pipe_times) {
  std::string best;
  double most = -1;
  for (const auto& [k, v] : pipe_times)
    if (v > most) {
      most = v;
      best = k;
    }
  return best;
}

Context context_of(const aoc::eval::CandidateReport& r) {
  Context ctx;
  std::set<std::string> dtypes;
  int64_t largest = 0;
  double vec = 0, mte2 = 0;
  for (const auto& c : r.cases) {
    if (!c.dtype.empty()) dtypes.insert(c.dtype);
    largest = std::max(largest, first_shape_elements(c.shapes));
    ctx.cores = std::max(ctx.cores, c.block_dim);
    if (auto it = c.profile.find("aiv_vec_time"); it != c.profile.end()) vec += it->second;
    if (auto it = c.profile.find("aiv_mte2_time"); it != c.profile.end()) mte2 += it->second;
  }
  ctx.dtypes.assign(dtypes.begin(), dtypes.end());
  if (largest > 0) ctx.shape_class = shape_class(largest);
  ctx.bound = busiest_pipe(mean_pipe_times(r));
  if (mte2 > 0) ctx.vec_mte2_ratio = vec / mte2;
  return ctx;
}

}  // namespace aoc::bank
