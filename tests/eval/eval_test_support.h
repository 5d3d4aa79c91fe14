// Shared setup of the evaluator tests: the project's build cache, the aoc-harness of
// this build, and the bad-kernel candidates in tests/data/bad_kernels.
#pragma once
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "base/content_hash.h"
#include "base/file_text.h"
#include "eval/candidate_eval.h"

namespace aoc::eval::testing {

inline std::filesystem::path source_root() { return AOC_SOURCE_DIR; }
inline std::filesystem::path bad_kernel(const std::string& name) {
  return source_root() / "tests" / "data" / "bad_kernels" / name;
}
inline std::filesystem::path add_package() { return source_root() / "ops" / "elementwise" / "add"; }

inline build::Builder& shared_builder() {
  static build::Builder b(build::default_builder_options());
  return b;
}

inline CandidateEvalOptions test_options(std::vector<std::string> cases) {
  CandidateEvalOptions o = default_candidate_eval_options();
  o.seed = 0x5eed;
  o.only_cases = std::move(cases);
  o.limits.wall_seconds = 20;
  o.limits.address_space_bytes = 4ull << 30;
  return o;
}

inline CandidateReport evaluate_dir(const std::filesystem::path& dir, const CandidateEvalOptions& o) {
  static const std::string headers = base::tree_hash(source_root() / "include" / "ascendc");
  return evaluate_candidate(load_candidate(dir, headers), shared_builder(), o);
}

// Replaces the first `from` in `file` (a copy of a package's source) by `to`; false, with
// nothing written, when `from` is not there.
inline bool replace_once(const std::filesystem::path& file, const std::string& from, const std::string& to) {
  std::string text = base::read_text(file);
  const size_t at = text.find(from);
  if (at == std::string::npos) return false;
  text.replace(at, from.size(), to);
  std::ofstream(file) << text;
  return true;
}

// Changes the byte at `at` of `file` (a cache file a test damages); twice restores it.
inline void flip_byte(const std::filesystem::path& file, std::streamoff at) {
  std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(at);
  char c = 0;
  f.get(c);
  f.seekp(at);
  f.put(static_cast<char>(c ^ 0x5a));
}

}  // namespace aoc::eval::testing
