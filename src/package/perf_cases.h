// The performance cases of a package (`perf = true` in op.toml): the shapes from real models
// its speed is measured on (the geomean simulated time over them), and the rules they must
// follow so that this speed means something (checked by `ascendopt ops list --check`).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "package/op_package.h"

namespace aoc::package {

// Bytes a case moves: its inputs plus its outputs. Output shapes come from
// OpPackage::output_shape: exact for `shape_like` outputs and once the operator's library
// (its InferShape) is loaded; otherwise the first input's shape stands in.
int64_t case_data_bytes(const OpPackage& p, const CaseSpec& c);

struct PerfCaseRules {
  size_t min_cases = 4;                       // enough shapes for a geomean not set by one of them
  int64_t min_bytes = 256 * 1024;             // below this launch overhead dominates
  int64_t max_bytes = 256LL * 1024 * 1024;    // above this a case costs every evaluation minutes
  double min_span = 4.0;                      // largest / smallest data of the perf cases
};

// Everything wrong with the package's performance cases, one sentence each naming the
// package and what to add or change; empty when they follow the rules.
std::vector<std::string> validate_perf_cases(const OpPackage& p, const PerfCaseRules& rules = {});

// Indices of the performance cases, in op.toml order.
std::vector<size_t> perf_case_indices(const OpPackage& p);

}  // namespace aoc::package
