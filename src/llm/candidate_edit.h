// Applying a parsed answer to a candidate: its editable sources (every file under
// op_host/ and op_kernel/, the package's op_host/ when the candidate has none) are read
// into memory, the edits applied there in answer order, and only a fully applied answer
// is written out, as a new candidate folder (docs/eval.md) next to nothing else: the
// parent is never touched. Every refusal is an AnswerError with a reason the next
// prompt can quote.
#pragma once
#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "eval/candidate.h"
#include "llm/answer.h"

namespace aoc::llm {

struct SourceTree {
  std::filesystem::path package_dir;          // the operator package the candidate belongs to
  std::map<std::string, std::string> files;   // "op_kernel/add.cpp" -> content
};

// Throws std::runtime_error when a source cannot be read.
SourceTree read_sources(const aoc::eval::Candidate& c);

struct ApplyLimits {
  size_t max_file_bytes = 1u << 20;
};

struct AppliedAnswer {
  SourceTree tree;
  std::vector<std::string> changed;  // files whose content changed, sorted
};

// Throws AnswerError: path_escape, unknown_file, ambiguous_file, conflicting_edits,
// empty_search, search_not_found, ambiguous_search, no_change, file_too_large.
AppliedAnswer apply_edits(const SourceTree& base, const ParsedAnswer& answer, const ApplyLimits& limits);

// The file of `tree` an answer's `name` means: the exact relative path, a longer path
// ending in op_host/... or op_kernel/..., or a bare file name that only one file has.
std::string resolve_file(const SourceTree& tree, const std::string& name);

// Writes `tree` as a candidate folder: op_host/, op_kernel/ and candidate.toml naming
// the package. `dir` must not exist or be empty; the folder appears whole or not at all
// (written beside it, then renamed). Throws std::runtime_error saying why it cannot.
void write_candidate(const SourceTree& tree, const std::filesystem::path& dir);

}  // namespace aoc::llm
