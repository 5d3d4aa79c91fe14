// The correctness judgement of one case: the package's golden on every trial's inputs and
// the precision gate (evaluation.md section 3) on the outputs the kernel returned. The
// golden is package code loaded from a shared object, so it runs in a contained child
// (eval/contained.h): when it crashes, throws or hangs, the case gets verdict `error`
// with a message and the evaluator goes on. The gate itself is the project's code and runs
// in this process.
#pragma once
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "eval/verdict.h"
#include "package/case_inputs.h"
#include "package/golden.h"
#include "package/op_package.h"
#include "package/output_check.h"

namespace aoc::eval {

struct GoldenFiles {
  std::filesystem::path reference;       // built in double
  std::filesystem::path same_precision;  // the same golden built in float (fallback screen)
};

struct TrialData {
  // The trial's inputs, owned by the caller (or the reference cache); asked for only when the
  // fallback screen runs the float golden on them.
  std::function<const std::vector<aoc::package::CaseTensor>*()> inputs;
  std::vector<aoc::package::TypedBuffer> outputs;                 // what the kernel returned
};

// The package's golden in double on each trial's inputs: one result per trial, each either
// the outputs or the golden's own failure message.
using TrialReferences = std::vector<aoc::package::GoldenLibrary::Result>;

struct ReferenceRun {
  bool ok = false;        // false: the golden crashed, threw, exited or ran out of time
  std::string message;    // why not (the case's verdict is then `error` with it)
  TrialReferences trials;
};

// Runs the golden on every trial's inputs in a contained child, its outputs rounded to their
// dtypes (the precision gate judges the rounded reference). The result depends only on
// the package, the case and the inputs, never on the kernel: it may be kept and reused for
// other candidates of the operator (eval/reference_cache.h).
ReferenceRun reference_outputs(const aoc::package::OpPackage& p, const aoc::package::CaseSpec& c, const GoldenFiles& golden,
                               const std::vector<std::vector<int64_t>>& output_shapes,
                               const std::vector<const std::vector<aoc::package::CaseTensor>*>& trial_inputs,
                               double wall_seconds);

struct Judgement {
  Verdict verdict = Verdict::Error;   // Ok, WrongResult, Suspicious or Error (golden failed)
  std::string message;
  std::vector<aoc::package::OutputCheck> outputs;  // first trial
};

// The precision gate on every trial's outputs against `references` (from reference_outputs, rounded;
// a reference of more trials serves a run of fewer, trial by trial from the first),
// in this process; the same-precision golden of the fallback screen, when an output needs it,
// runs in a contained child. With two or more trials, a later trial that returns the first
// trial's outputs while the reference changed is Suspicious (cached or replayed output).
Judgement judge_case(const aoc::package::OpPackage& p, const aoc::package::CaseSpec& c, const GoldenFiles& golden,
                     const std::vector<std::vector<int64_t>>& output_shapes, const std::vector<TrialData>& trials,
                     const TrialReferences& references, double wall_seconds);

}  // namespace aoc::eval
