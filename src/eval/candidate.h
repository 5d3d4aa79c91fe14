// A candidate: a modified copy of an operator package's op_host/ and op_kernel/,
// plus candidate.toml naming the package it belongs to (package = "<path>", relative
// to the candidate folder or absolute). A missing op_host/ means the package's own.
// An operator package folder (with op.toml) is a candidate of itself, and its expert/
// folder (hand-optimized op_host/ + op_kernel/) is a candidate of it without candidate.toml.
#pragma once
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "build/op_build.h"
#include "package/op_package.h"

namespace aoc::eval {

class CandidateError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Candidate {
  std::filesystem::path dir;
  aoc::package::OpPackage package;
  build::SourceDirs sources;
  std::string hash;  // sources, package description, golden and the AscendC headers
};

// True for <package>/expert (no candidate.toml of its own).
bool is_expert_folder(const std::filesystem::path& dir);

// `path` itself when it is a candidate (candidate.toml), an operator package (op.toml) or an
// expert folder; otherwise every such folder below it, sorted (not looking inside one found).
std::vector<std::filesystem::path> find_candidates(const std::filesystem::path& path);

// `header_hash`: tree_hash of include/ascendc (results go stale when the library changes).
// Throws CandidateError (what is wrong and how to fix it) or aoc::package::PackageError.
Candidate load_candidate(const std::filesystem::path& dir, const std::string& header_hash);

}  // namespace aoc::eval
