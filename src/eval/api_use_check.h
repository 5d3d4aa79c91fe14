// The API-use part of the static check: `aoc-rewrite check-api` (tools/rewrite/api_check.h)
// on a candidate's sources, every dtype variant of its kernel, judging each name the
// candidate's code spells. A candidate that names the simulator's internals (namespace aoc,
// the API classes' aoc_ hooks) could rewrite the trace that is timed and still compute the
// right answer; this refuses it before anything is built. Answers are kept in the build cache
// under the content of the sources, the headers and the checker, so a candidate evaluated again
// costs a file read.
#pragma once
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "eval/candidate.h"
#include "eval/source_check.h"

namespace aoc::eval {

// The checker cannot be run: missing program, an answer that does not read.
class ApiCheckUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ApiCheckOutcome {
  std::vector<SourceFinding> findings;  // rule "api-use", in the candidate's own files
  // The sources do not parse with clang ("file:line: message"): nothing was judged. The
  // build says whether they are broken (compile_error); a kernel that builds with g++ but
  // cannot be checked is refused.
  std::string parse_error;
  bool from_cache = false;
  double seconds = 0;  // wall time of this call
};

// $AOC_REWRITE, else aoc-rewrite beside the running program, else the build tree's.
std::filesystem::path api_checker_path();

// Throws ApiCheckUnavailable when the checker is missing or fails. Answers are kept in
// <cache_dir>/api-check; the api-check/ of `shared_caches` is read first (base/paths.h).
ApiCheckOutcome check_api_use(const Candidate& c, const std::filesystem::path& checker,
                              const std::filesystem::path& root, const std::filesystem::path& cache_dir,
                              const std::vector<std::filesystem::path>& shared_caches, bool precompiled_headers);

}  // namespace aoc::eval
