// What squeue and sacct say of job-array elements, parsed. Slurm lists a running or finished
// element as "12_3" and the pending rest of an array as one line, "12_[4-9%2]".
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace aoc::cluster {

struct ElementState {
  std::string job;    // the array's job id
  size_t index = 0;   // the element (SLURM_ARRAY_TASK_ID)
  std::string state;  // PENDING, RUNNING, COMPLETED, CANCELLED ...
  std::string reason; // squeue's reason (why pending), "" from sacct
};

// The lines of `squeue -h -t all -o '%i|%T|%r'`; lines of other shapes are skipped.
std::vector<ElementState> parse_squeue(std::string_view out);

// The lines of `sacct -n -P -X -o JobID,State`: "12_3|CANCELLED by 0" gives CANCELLED.
std::vector<ElementState> parse_sacct(std::string_view out);

// A state from which the element will not run again on its own (COMPLETED, FAILED, CANCELLED,
// TIMEOUT, PREEMPTED, NODE_FAIL, OUT_OF_MEMORY, BOOT_FAIL, DEADLINE ...).
bool is_terminal_state(std::string_view state);

}  // namespace aoc::cluster
