// Runs a program and captures its combined stdout+stderr (the compiler, here).
#pragma once
#include <string>
#include <vector>

namespace aoc::base {

struct ProcessResult {
  int exit_code = -1;  // -1 when it could not be started or was killed by a signal
  std::string output;
};

ProcessResult run_process(const std::vector<std::string>& argv);

}  // namespace aoc::base
