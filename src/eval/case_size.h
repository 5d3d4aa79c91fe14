// Whether a case's tensors fit in the memory a case may use.
//
// A case is drawn, written and run as whole buffers: the evaluator draws the inputs, the
// harness holds inputs and outputs under its address-space limit (--memory-gb). A case of
// 2^40 elements cannot be held anywhere; allocating it anyway ends in std::bad_alloc with
// nothing to say which case or buffer. This check names them before anything is allocated.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "package/op_package.h"

namespace aoc::eval {

// "" when every input and output of case `c` (outputs shaped `out_shapes`) fits under
// `limit_bytes` on its own and all together; else what does not fit, with sizes in bytes:
// "input x holds 1099511627776 elements of float16: 2199023255552 bytes, more than the
// address-space limit of 8589934592 bytes (--memory-gb 8)".
std::string oversized_case(const aoc::package::OpPackage& p, const aoc::package::CaseSpec& c,
                           const std::vector<std::vector<int64_t>>& out_shapes, uint64_t limit_bytes);

// "<bytes> bytes, more than the address-space limit of <limit> bytes (--memory-gb G)".
std::string bytes_over_limit(long double bytes, uint64_t limit_bytes);

}  // namespace aoc::eval
