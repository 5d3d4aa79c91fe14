// `aoc-rewrite check-api`: every name a candidate's own code spells, judged by api_rules.h.
// The parse is the rewriter's (clang_frontend.h, with its precompiled headers); template
// instantiations are visited, so code that reaches the internals only once instantiated is
// seen. A name spelled in the AscendC headers, macro bodies included, is the API's own and is
// not judged; one spelled in a candidate file, in a candidate macro's body or pasted together
// by a candidate macro is.
#pragma once
#include <string>
#include <vector>

#include "clang_frontend.h"

namespace aoc::rewrite {

struct ApiViolation {
  std::string file;  // the candidate file where the name is written (real path)
  unsigned line = 0;
  unsigned column = 0;
  std::string symbol;  // qualified name ("aoc::core", "macro AOC_TILING_CAT")
  std::string reason;
};

struct ApiCheckInput {
  ParseInput parse;                      // editable_roots: every candidate folder
  std::vector<std::string> kernel_roots;  // the folders whose code is kernel code (op_kernel)
  std::string headers;                    // include/ascendc: what is declared there is the API's
};

struct ApiCheckResult {
  std::vector<ApiViolation> violations;  // sorted by file, line, column
  std::vector<ParseError> errors;        // the sources did not parse: nothing was judged
};

ApiCheckResult check_api(const ApiCheckInput& in);

// The names the AscendC headers declare in the global namespace (what global_api_names()
// must be decided against), from a parse of the kernel units.
std::vector<std::string> header_global_names(const ParseInput& in, const std::string& headers);

}  // namespace aoc::rewrite
