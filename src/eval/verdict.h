// The outcome classes of evaluating one candidate (docs/eval.md lists them with
// what each means and what to do about it). Ordered by how early in the pipeline
// they are decided; a candidate's verdict is the worst of its cases.
#pragma once
#include <optional>
#include <string_view>

namespace aoc::eval {

enum class Verdict {
  Ok,
  Suspicious,    // correct, but faster than T_HW or its outputs ignore the inputs
  WrongResult,   // outputs fail the correctness gate
  RuntimeError,  // aoc::KernelError, a race, a failing tiling function
  MemoryLimit,   // the address-space limit was hit
  Timeout,       // wall-clock or CPU limit
  Crash,         // killed by a signal
  Rejected,      // the static source check refused it
  CompileError,  // the build failed
  Error,         // the evaluator could not set up the run (package, SoC, harness)
};

const char* to_string(Verdict v);
std::optional<Verdict> parse_verdict(std::string_view s);
// Severity order used to combine cases: a higher rank dominates.
int rank(Verdict v);

}  // namespace aoc::eval
