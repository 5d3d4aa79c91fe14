// Runs trusted-but-fallible code of an operator package (its golden, its InferShape)
// in a forked child of the evaluator, so a crash, a throw, an exit or an endless loop
// there becomes an error message instead of taking the evaluator (and the other
// candidates of a batch) down. The child inherits this process's memory (no exec, no
// copy of the inputs) and answers with a string, through a memory file.
#pragma once
#include <functional>
#include <string>

namespace aoc::eval {

struct ContainedResult {
  bool ok = false;
  std::string answer;  // what the function returned (ok)
  std::string error;   // why there is no answer: its exception, a signal, an exit, the time limit
};

// `what` names the code in messages ("the golden", "InferShape"). The child's stdout and
// stderr go to /dev/null so it cannot interleave with the caller's output.
ContainedResult run_contained(const std::string& what, const std::function<std::string()>& fn, double wall_seconds);

}  // namespace aoc::eval
