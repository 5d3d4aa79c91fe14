// Errors of the simulator itself (bad SoC file, deadlocked trace): distinct from
// aoc::KernelError, which reports kernel misuse at a source line.
#pragma once
#include <stdexcept>
#include <string>

namespace aoc::sim {

class SimError : public std::runtime_error {
 public:
  explicit SimError(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace aoc::sim
