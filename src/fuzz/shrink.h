// Shrinking a failing case: smaller cases that stay within what the operator declares it
// supports ([hidden] rank, inner, inner_multiple, elements_multiple; the same dtype variant and
// attributes), in the order a shrinker should try them (the largest reduction first). The caller
// keeps the first that still fails the same way and asks again, until none does.
#pragma once
#include <vector>

#include "package/op_package.h"

namespace aoc::fuzz {

std::vector<aoc::package::CaseSpec> smaller_cases(const aoc::package::OpPackage& p, const aoc::package::CaseSpec& c);

// The first input's shape of a case.
const std::vector<int64_t>& first_shape(const aoc::package::OpPackage& p, const aoc::package::CaseSpec& c);

}  // namespace aoc::fuzz
