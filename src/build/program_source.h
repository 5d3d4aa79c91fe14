// Single-file kernel programs (`.asc`: kernels, host code and main in one file, kernels
// launched with `kernel<<<blockDim, l2ctrl, stream>>>(args...)`) made into C++ the CPU runtime
// builds: each launch becomes `kernel * ::aoc::runtime::chevron(blockDim, l2ctrl, stream)(args...)`
// (aoc/chevron.h). Comments, string and character literals are left as they are, and so is the
// line structure, so compiler messages keep the program's line numbers.
#pragma once
#include <string>

namespace aoc::build {

struct ProgramSource {
  std::string text;      // the rewritten source
  int launches = 0;      // launches rewritten
  std::string error;     // "" or what could not be rewritten ("line N: ...")
};

ProgramSource rewrite_launches(const std::string& source);

}  // namespace aoc::build
