// Every removable motif taken out of a kernel, one removal after another: the kernel as it
// would be before its optimizations, written as one candidate folder. A removal refused on the
// kernel as it is (double buffering of an unrolled loop) is tried again after each removal that
// succeeds, so motifs that hold each other come out in an order that works.
#pragma once
#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "eval/candidate.h"

namespace aoc::rewrite {

struct StripOutcome {
  std::vector<std::string> removed;                          // in the order they came out
  std::vector<std::pair<std::string, std::string>> refused;  // motif, why (on the final kernel)
  std::vector<std::string> changed;                          // files changed, relative to the new folder
  std::string diff;                                          // unified diff of the source against the result
  bool done() const { return !removed.empty(); }
};

// Removes every present motif not in `keep` from `c`'s kernel and writes the result to `out`
// (which must not exist or be empty), a candidate folder naming `c`'s package. Each step is
// written beside `out` and removed once the next step exists; nothing is written when no
// motif can be removed. `header_hash` as for eval::load_candidate. Throws RewriteError.
StripOutcome strip_motifs(const aoc::eval::Candidate& c, const std::set<std::string>& keep,
                          const std::filesystem::path& out, const std::string& header_hash);

}  // namespace aoc::rewrite
