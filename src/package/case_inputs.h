// Input generation for one case: seeded, fresh per run, values drawn from the
// case's value range and rounded to the input's dtype, so the kernel and the
// golden see exactly the same numbers.
#pragma once
#include <cstdint>
#include <vector>

#include "package/dtype.h"
#include "package/op_package.h"

namespace aoc::package {

struct CaseTensor {
  std::string name;
  std::vector<int64_t> shape;
  TypedBuffer data;  // in the tensor's dtype for this variant
};

int64_t element_count(const std::vector<int64_t>& shape);

// Fills `buf` from the value range; special values go to the head and tail.
void fill_values(TypedBuffer& buf, const ValueRange& range, uint64_t stream_seed);

// The inputs of case `case_index` of the package, drawn with `seed`.
std::vector<CaseTensor> make_case_inputs(const OpPackage& p, size_t case_index, uint64_t seed);

}  // namespace aoc::package
