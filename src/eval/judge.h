// The correctness judgement of one case: the package's golden on every trial's inputs and
// the precision gate (evaluation.md section 3) on the outputs the kernel returned. The
// golden is package code loaded from a shared object, so it runs in a contained child
// (eval/contained.h): when it crashes, throws or hangs, the case gets verdict `error`
// with a message and the evaluator goes on.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "eval/verdict.h"
#include "ops/case_inputs.h"
#include "ops/output_check.h"
#include "ops/op_package.h"

namespace aoc::eval {

struct GoldenFiles {
  std::filesystem::path reference;       // built in double
  std::filesystem::path same_precision;  // the same golden built in float (fallback screen)
};

struct TrialData {
  std::vector<aoc::op::CaseTensor> inputs;
  std::vector<aoc::op::TypedBuffer> outputs;  // what the kernel returned
};

struct Judgement {
  Verdict verdict = Verdict::Error;   // Ok, WrongResult, Suspicious or Error (golden failed)
  std::string message;
  std::vector<aoc::op::OutputCheck> outputs;  // first trial
};

// With two or more trials, a later trial that returns the first trial's outputs while the
// reference changed is Suspicious (cached or replayed output).
Judgement judge_case(const aoc::op::OpPackage& p, const aoc::op::CaseSpec& c, const GoldenFiles& golden,
                     const std::vector<std::vector<int64_t>>& output_shapes, const std::vector<TrialData>& trials,
                     double wall_seconds);

}  // namespace aoc::eval
