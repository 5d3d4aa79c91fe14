// Evaluation of an operator package (or a candidate's sources) IN THIS PROCESS, unsandboxed:
// for the project's trusted in-tree kernels only (calibration, the library's tests), where
// in-process speed and traces matter. Kernels nobody reviewed go through evaluate_candidate
// (eval/candidate_eval.h). Failures are data in the report, never exceptions.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "eval/builder.h"
#include "eval/op_build.h"
#include "ops/case_runner.h"
#include "ops/op_package.h"

namespace aoc::eval {

struct EvalOptions {
  uint64_t seed = 0;
  std::string soc = "Ascend910B1";     // simulator SoC; empty: no timing
  std::vector<std::string> only_cases;  // empty: all public cases
  std::optional<SourceDirs> sources;    // a candidate's op_host/op_kernel instead of the package's
  std::string chrome_trace_case;        // write this case's Chrome/Perfetto trace ...
  std::string chrome_trace_path;        // ... to this file (needs a SoC)
  // Per-core traces of each case that ran (CaseOptions::on_traces), with the case's name.
  std::function<void(const std::string& case_name, const std::vector<aoc::rt::CoreRun>&)> on_traces;
};

struct BuildIssue {
  std::string what;  // "add float16 kernel" / "add golden"
  BuildResult result;
};

struct OpReport {
  std::string op;
  std::string dir;
  uint64_t seed = 0;
  std::string soc;
  std::vector<BuildIssue> build_failures;
  std::string setup_error;  // loading a library, the SoC ...
  std::vector<aoc::op::CaseOutcome> cases;
  size_t builds = 0, build_cache_hits = 0;

  bool passed() const;
  size_t count(aoc::op::Verdict v) const;
};

OpReport evaluate_package(const aoc::op::OpPackage& p, Builder& builder, const EvalOptions& opt);

// A seed from the clock and the process: fresh inputs per run unless one is given.
uint64_t fresh_seed();

}  // namespace aoc::eval
