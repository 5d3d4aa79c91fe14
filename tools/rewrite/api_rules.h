// What a candidate's code may name: the rule of `aoc-rewrite check-api`, on plain data so it
// reads (and is tested) without clang. A candidate includes the AscendC headers, which are the
// simulator's own code: namespace aoc and the API classes' aoc_ members drive the trace that
// is timed, so a kernel naming them could forge its time. The candidate may name its own
// declarations, the API (namespaces AscendC, optiling, ... and the global names the headers
// declare for kernels), the whole C and C++ library in host code, and a short list of the
// C++ library in kernel code.
#pragma once
#include <string>
#include <vector>

namespace aoc::rewrite {

// Where the named entity is declared.
enum class DeclOrigin {
  Candidate,  // the candidate's own files
  AscendC,    // include/ascendc (the simulator's API headers)
  Library,    // anything else: the C and C++ library, compiler builtins
};

// Which side of the operator spelled the reference.
enum class Side { Kernel, Host };

struct Symbol {
  std::string qualified;                // "aoc::core", "AscendC::LocalTensor::aoc_mem", "std::min"
  std::vector<std::string> namespaces;  // enclosing namespaces, outermost first (inline ones too)
  std::vector<std::string> scopes;      // every enclosing name and the entity's own, outermost first
  DeclOrigin origin = DeclOrigin::Library;
  bool is_namespace = false;            // a namespace (or alias) named as a qualifier or in a using
};

// Why the reference is forbidden, or "" when it is allowed.
std::string forbidden_reason(const Symbol& s, Side side);

// The C++ library names kernel code may use (qualified, as in the reason messages), and the
// global names the AscendC headers declare for kernels: for the documentation and the tests.
const std::vector<std::string>& kernel_library_names();
const std::vector<std::string>& global_api_names();

}  // namespace aoc::rewrite
