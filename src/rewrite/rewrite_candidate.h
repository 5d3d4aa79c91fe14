// One motif applied to or removed from an operator's kernel, written as a new candidate
// folder (docs/eval.md): op_host/ and op_kernel/ copied from the source candidate and edited
// by aoc-rewrite, candidate.toml naming the package. A refused transformation leaves nothing.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "eval/candidate.h"

namespace aoc::rewrite {

struct RewriteOutcome {
  bool done = false;
  std::string refused;              // why not, when !done
  std::vector<std::string> changed; // files changed, relative to the new folder
  std::string diff;                 // unified diff against the source candidate
};

// action: "apply" or "remove". `out` must not exist or be empty. Throws RewriteError for
// a missing rewriter, unparsable sources or an unwritable folder.
RewriteOutcome rewrite_candidate(const aoc::eval::Candidate& c, const std::string& action, const std::string& motif,
                                 const std::filesystem::path& out);

// Writes `dir`/candidate.toml naming `c`'s package by its path relative to `final_dir` (where
// `dir` will be renamed to), under a comment line. Throws RewriteError.
void write_candidate_toml(const std::filesystem::path& dir, const std::filesystem::path& final_dir,
                          const aoc::eval::Candidate& c, const std::string& comment);

// The unified diff of the files `changed` (op_host/... or op_kernel/..., relative to `dir`)
// against `from`'s sources.
std::string diff_against(const aoc::eval::Candidate& from, const std::filesystem::path& dir,
                         const std::vector<std::string>& changed);

}  // namespace aoc::rewrite
