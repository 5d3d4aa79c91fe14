#include "package/case_inputs.h"

#include "base/rng.h"

namespace aoc::package {

int64_t element_count(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

void fill_values(TypedBuffer& buf, const ValueRange& range, uint64_t stream_seed) {
  base::Xoshiro256 rng(stream_seed);
  // A bool has no range to draw from: a uniform range would turn into "all true" after
  // v != 0, so bool inputs draw a fair coin per element from the same stream instead.
  const bool uniform = range.dist == "uniform";
  const bool coin = buf.type == ElemType::Bool && uniform;
  const double constant = range.dist == "constant" ? range.value : 0.0;
  visit_elem_type(buf.type, [&](auto c) {
    using C = decltype(c);
    unsigned char* out = buf.bytes.data();
    if (coin) {
      for (size_t i = 0; i < buf.count; ++i) C::store(rng.unit() < 0.5 ? 1.0 : 0.0, out + i * C::bytes);
    } else if (uniform) {
      for (size_t i = 0; i < buf.count; ++i) C::store(rng.uniform(range.low, range.high), out + i * C::bytes);
    } else {
      for (size_t i = 0; i < buf.count; ++i) C::store(constant, out + i * C::bytes);
    }
  });
  // Specials at both ends: a kernel's first and last tiles are where tails and
  // edge handling live, so that is where a mishandled NaN/inf shows.
  const size_t k = range.special.size();
  for (size_t j = 0; j < k && j < buf.count; ++j) {
    buf.set(j, range.special[j]);
    buf.set(buf.count - 1 - j, range.special[j]);
  }
}

std::vector<CaseTensor> make_case_inputs(const OpPackage& p, size_t case_index, uint64_t seed) {
  const CaseSpec& c = p.cases.at(case_index);
  std::vector<CaseTensor> out;
  for (size_t i = 0; i < p.inputs.size(); ++i) {
    const TensorSpec& in = p.inputs[i];
    CaseTensor t;
    t.name = in.name;
    t.shape = c.shapes.at(in.name);
    t.data = TypedBuffer(in.dtypes[c.variant], static_cast<size_t>(element_count(t.shape)));
    auto it = c.input_values.find(in.name);
    const ValueRange& range = it != c.input_values.end() ? it->second : c.values;
    fill_values(t.data, range, base::mix_seed(seed, case_index, i));
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace aoc::package
