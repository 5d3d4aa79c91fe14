// Loading the operator package, expert folder or candidate that `ascendopt motifs` and
// `ascendopt rewrite` read, with errors phrased for the command line.
#pragma once
#include <optional>
#include <string>

#include "eval/candidate.h"

namespace aoc::cli {

// The hash of the AscendC headers candidates are loaded with ("no-headers" without them).
std::string header_hash();

// Sets `error` and returns nullopt when the folder is not a package or candidate.
std::optional<aoc::eval::Candidate> load_rewrite_target(const std::string& dir, std::string& error);

}  // namespace aoc::cli
