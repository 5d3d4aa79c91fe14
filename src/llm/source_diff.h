// What a model's answer changed in a kernel: the unified diff of two candidates' op_host/ and
// op_kernel/ sources, each file labelled by its path in the candidate (a/op_kernel/add.cpp),
// so it reads the same wherever the candidates were written. The optimizer keeps it per LLM
// variant (kernel.diff); rewinding stores it in the bank entry of an LLM removal.
#pragma once
#include <string>

#include "eval/candidate.h"

namespace aoc::llm {

// Empty when the sources are the same. One `diff -u` per file of either side.
std::string source_diff(const aoc::eval::Candidate& from, const aoc::eval::Candidate& to);

}  // namespace aoc::llm
