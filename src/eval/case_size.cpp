#include "eval/case_size.h"

#include <cmath>
#include <cstdio>

#include "package/dtype.h"

namespace aoc::eval {

namespace {

// Counts in long double: a product of dimensions may overflow 64 bits, and the message must
// still give its size.
long double elements(const std::vector<int64_t>& shape) {
  long double n = 1;
  for (int64_t d : shape) n *= static_cast<long double>(d < 0 ? 0 : d);
  return n;
}

std::string integer(long double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0Lf", v);
  return buf;
}

}  // namespace

std::string bytes_over_limit(long double bytes, uint64_t limit_bytes) {
  char gb[32];
  std::snprintf(gb, sizeof gb, "%g", static_cast<double>(limit_bytes) / static_cast<double>(1ull << 30));
  return integer(bytes) + " bytes, more than the address-space limit of " + std::to_string(limit_bytes) +
         " bytes (--memory-gb " + gb + ")";
}

std::string oversized_case(const aoc::package::OpPackage& p, const aoc::package::CaseSpec& c,
                           const std::vector<std::vector<int64_t>>& out_shapes, uint64_t limit_bytes) {
  long double total = 0;
  auto one = [&](const char* kind, const aoc::package::TensorSpec& t, const std::vector<int64_t>& shape) -> std::string {
    const aoc::package::ElemType type = t.dtypes.at(c.variant);
    const long double n = elements(shape);
    const long double bytes = n * aoc::package::info(type).bytes;
    total += bytes;
    if (bytes <= static_cast<long double>(limit_bytes)) return "";
    return std::string(kind) + " " + t.name + " holds " + integer(n) + " elements of " + aoc::package::info(type).name +
           ": " + bytes_over_limit(bytes, limit_bytes);
  };
  for (const auto& t : p.inputs) {
    const auto it = c.shapes.find(t.name);
    if (it == c.shapes.end()) continue;
    if (std::string bad = one("input", t, it->second); !bad.empty()) return bad;
  }
  for (size_t o = 0; o < p.outputs.size() && o < out_shapes.size(); ++o)
    if (std::string bad = one("output", p.outputs[o], out_shapes[o]); !bad.empty()) return bad;
  if (total > static_cast<long double>(limit_bytes))
    return "its inputs and outputs together hold " + bytes_over_limit(total, limit_bytes);
  return "";
}

}  // namespace aoc::eval
