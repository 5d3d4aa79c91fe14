#include "fuzz/shrink.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "package/case_gen.h"

namespace aoc::fuzz {

namespace {

using aoc::package::CaseSpec;
using aoc::package::OpPackage;
using aoc::package::ValueRange;

// Shapes of the first input to try, largest reduction first: fewer dimensions, then each
// dimension at 1, halved, and one less.
std::vector<std::vector<int64_t>> smaller_shapes(const std::vector<int64_t>& s) {
  std::vector<std::vector<int64_t>> out;
  for (size_t i = 0; i + 1 < s.size(); ++i) {  // drop an outer dimension
    std::vector<int64_t> t = s;
    t.erase(t.begin() + static_cast<std::ptrdiff_t>(i));
    out.push_back(t);
  }
  for (int64_t (*step)(int64_t) : {+[](int64_t) -> int64_t { return 1; }, +[](int64_t d) { return d / 2; },
                                   +[](int64_t d) { return d - 1; }}) {
    for (size_t i = 0; i < s.size(); ++i) {
      const int64_t d = step(s[i]);
      if (d < 1 || d >= s[i]) continue;
      std::vector<int64_t> t = s;
      t[i] = d;
      out.push_back(t);
    }
  }
  return out;
}

// Simpler input values: the same range without its special values, then all zeros.
std::vector<ValueRange> simpler_values(const ValueRange& v) {
  std::vector<ValueRange> out;
  if (!v.special.empty()) {
    ValueRange plain = v;
    plain.special.clear();
    out.push_back(plain);
  }
  if (v.dist != "zeros") {
    ValueRange zeros;
    zeros.dist = "zeros";
    out.push_back(zeros);
  }
  return out;
}

}  // namespace

const std::vector<int64_t>& first_shape(const OpPackage& p, const CaseSpec& c) {
  return c.shapes.at(p.inputs.front().name);
}

std::vector<CaseSpec> smaller_cases(const OpPackage& p, const CaseSpec& c) {
  std::vector<CaseSpec> out;
  std::set<std::vector<int64_t>> seen;
  for (const auto& shape : smaller_shapes(first_shape(p, c))) {
    if (!aoc::package::shape_outside_declared(p.hidden, shape).empty() || !seen.insert(shape).second) continue;
    CaseSpec t = c;
    t.shapes = aoc::package::input_shapes_from_first(p, shape);
    out.push_back(std::move(t));
  }
  for (const auto& v : simpler_values(c.values)) {
    CaseSpec t = c;
    t.values = v;
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace aoc::fuzz
