// Test cases beyond the public ones in op.toml: the hidden cases drawn from the
// package's [hidden] generator parameters with a seed that is never stored in the
// repository, the case-set selection shared by every command that runs cases, and
// the rules a package's public cases must follow (evaluation.md section 4).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "package/op_package.h"

namespace aoc::package {

enum class CaseSet { Public, Hidden, All };
// "public", "hidden" or "all".
std::optional<CaseSet> parse_case_set(const std::string& s);

struct HiddenDraw {
  uint64_t seed = 0;
  int64_t count = 0;         // 0: the package's [hidden].count
  int64_t max_elements = 0;  // 0: the package's [hidden].elements maximum; else a lower cap
};

// The seed of a hidden draw: $ASCENDOPT_HIDDEN_SEED (decimal or 0x-hex) when set, else a
// fresh random one; callers print it so a draw can be repeated. Throws
// std::invalid_argument when the variable is set but not a number.
uint64_t hidden_seed_from_environment();

// Cases named hidden_<i>: shapes with primes and innermost byte lengths that are not
// multiples of 512 B, ranks and sizes from the [hidden] ranges, dtypes, attributes and
// value ranges drawn from its lists. The same package and draw give the same cases.
std::vector<CaseSpec> generate_hidden_cases(const OpPackage& p, const HiddenDraw& draw);

// The shapes of every input of a case whose first input has shape `first`: the same shape, or
// the dimensions [hidden].input_dims picks from it.
std::map<std::string, std::vector<int64_t>> input_shapes_from_first(const OpPackage& p,
                                                                   const std::vector<int64_t>& first);

// The least rank of a generated first input: [hidden].rank's minimum, or more when input_dims
// picks a dimension beyond it.
int64_t least_rank(const HiddenSpec& h);

// What is wrong with `first` as the first input's shape under what the package declares it
// supports ([hidden] rank, inner and inner_multiple), or "" when it is within.
std::string shape_outside_declared(const HiddenSpec& h, const std::vector<int64_t>& first);

// The shapes the package declares it supports, beyond the defaults, in words ("rank 2..3,
// innermost a multiple of 2, elements a multiple of 48"); "" when it declares nothing.
std::string declared_support(const HiddenSpec& h);

// The package with its cases replaced by the selected set (hidden cases follow the
// public ones for CaseSet::All).
OpPackage with_case_set(const OpPackage& p, CaseSet set, const HiddenDraw& draw);

// True when the innermost dimension of the case's first input spans a byte length that
// is not a multiple of 512 B (the misaligned tail every kernel must handle).
bool innermost_unaligned(const OpPackage& p, const CaseSpec& c);

// Elements of all inputs of a case.
int64_t case_input_elements(const OpPackage& p, const CaseSpec& c);

// Unified Buffer bytes a "small" case must fit in (the smallest UB of the supported SoCs).
constexpr int64_t kSmallCaseBytes = 192 * 1024;
// Input elements at least one public case must reach (bandwidth-bound size).
constexpr int64_t kLargeCaseElements = 10000000;
constexpr size_t kMinPublicCases = 8;

// Everything wrong with the public cases, one sentence each naming the rule and the fix;
// empty when they follow the rules.
std::vector<std::string> validate_public_cases(const OpPackage& p);

}  // namespace aoc::package
