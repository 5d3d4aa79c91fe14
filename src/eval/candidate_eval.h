// Isolated evaluation of one candidate on the cases of its operator (docs/eval.md):
// static source check -> cached build -> per case, a fresh private folder with that
// case's seeded inputs (two trials: original and perturbed) and poisoned output
// buffers -> aoc-harness in the sandbox -> back in this process: golden, correctness
// gate, race check, simulated Task Duration and T_HW from the returned traces ->
// one verdict per case and per candidate. Nothing a candidate does stops the caller.
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/sandbox.h"
#include "build/builder.h"
#include "eval/candidate.h"
#include "eval/harness_protocol.h"
#include "eval/source_check.h"
#include "eval/verdict.h"
#include "package/case_gen.h"
#include "package/output_check.h"
#include "sim/hazards.h"
#include "sim/profile.h"

namespace aoc::eval {

struct CandidateEvalOptions {
  uint64_t seed = 0;
  std::string soc = "Ascend910B1";      // empty: no timing, no race check
  std::string case_set = "public";      // "public", "hidden", "all"
  aoc::package::HiddenDraw hidden;           // draw of the hidden cases: seed (hidden_seed_from_environment()),
                                        // count and size cap (0: the package's [hidden] values)
  std::vector<std::string> only_cases;  // empty: every case of the set
  base::SandboxLimits limits;
  std::filesystem::path harness;        // aoc-harness executable
  std::filesystem::path api_checker;    // aoc-rewrite, for the API-use check (eval/api_use_check.h)
  std::filesystem::path temp_root;      // where private per-case folders are made
  // Where cases' inputs and golden outputs are kept on disk (eval/reference_files.h); empty:
  // `<cache dir>/references` of the builder.
  std::filesystem::path reference_dir;
  TuningConfig config;                  // knob values and platform overrides (empty: defaults)
  std::string chrome_trace_case;        // write this case's Chrome/Perfetto trace ...
  std::string chrome_trace_path;        // ... to this file (needs a SoC)
  // Time every instruction: no skipping of the iterations of a loop whose engine state repeats
  // (sim/steady_state.h). The times agree either way; this is the reference to check that.
  bool full_simulation = false;
  // With a SoC: the per-core traces of each case's first trial that passed the correctness
  // gate, with the case's name, as read back from the child (e.g. to keep them for re-timing
  // on other SoC parameters without running the kernel again).
  std::function<void(const std::string& case_name, const std::vector<aoc::runtime::CoreRun>&)> on_traces;
  // Runs of each case: 2 is the correctness gate (the seeded inputs, then perturbed ones in the
  // same process, so a kernel replaying earlier outputs shows); 1 runs only the first (the one
  // that is timed and race-checked), as the screen of a cascade does (eval/cascade.h).
  int trials = 2;
  // Stop at the first case whose verdict is not ok (the later cases are not run or reported):
  // for a caller that needs only to know whether every case passes.
  bool stop_at_failure = false;
  // Run each case's tiling function only (no inputs, no kernel, no golden, no timing): a case is
  // ok with its tiling_digest, blockDim, tiling key and knobs when the tiling succeeds. What a
  // search asks to know whether a configuration changes anything the kernel sees.
  bool tiling_only = false;
  // The static check of the candidate's sources (step 1 of docs/eval.md). Off only where a test
  // evaluates a kernel that check refuses, to exercise the checks behind it.
  bool check_sources = true;
};

// The aoc-harness next to this build ($AOC_HARNESS overrides), and $TMPDIR (else /tmp),
// which may name no folder: check it with temp_root_problem.
CandidateEvalOptions default_candidate_eval_options();

// Why private folders cannot be made under `root` (missing, not a folder, not writable), or "".
std::string temp_root_problem(const std::filesystem::path& root);

// How many times this process drew a case's inputs from its seed (rather than finding them in
// the reference cache or its files), all evaluations together.
size_t case_inputs_drawn();

struct CaseResult {
  std::string name, dtype, shapes;
  Verdict verdict = Verdict::Error;
  std::string message;
  std::string error_file;
  unsigned error_line = 0;
  std::vector<aoc::package::OutputCheck> outputs;  // first trial
  uint32_t block_dim = 0;
  uint64_t tiling_key = 0;
  std::optional<double> sim_us, t_hw_us;
  // The least Task Duration the bytes seen written into the outputs allow, from the SoC alone
  // (sim/time_bound.h); a simulated time below it is suspicious.
  std::optional<double> write_bound_us;
  // Instructions the timing engine counted in repeated loop iterations instead of simulating
  // them one by one (sim/steady_state.h); 0 with full simulation.
  uint64_t skipped_instructions = 0;
  std::string bound;  // the unit that sets T_HW
  double wall_ms = 0;
  // Where wall_ms went: inputs (drawing them), files (the case folder), harness (the sandboxed
  // run), golden, judge (reading outputs, comparing), simulate (traces, races, timing). The
  // evaluator's own profile, for docs/performance.md and users who time it.
  std::map<std::string, double> phase_ms;
  // With a SoC: the msprof-style op-level pipe fields (aiv_mte2_time, aiv_vec_ratio ...) and
  // the pipe with the largest mean time; the tuner's profile-guided moves read them.
  std::map<std::string, double> profile;
  std::string bound_pipe;
  std::vector<KnobDecl> knobs;  // what the tiling function declared (tiling/tuning_knobs.h)
  uint32_t platform_reads = 0;  // kPlatformReads* bits: the platform numbers the tiling read
  std::string tiling_digest;          // TrialStatus::tiling_digest ("" when the tiling failed)
  bool config_read_by_kernel = false;  // TrialStatus::config_read_by_kernel, any trial
  std::vector<std::string> warnings;  // device-tolerated behaviour seen in the first trial
  std::string printed;                // what the kernel printed in the first trial (TrialStatus::printed)
  // For profiling front ends (`ascendopt run`), not kept in the result store: the full
  // simulated profile (per-block times), T_HW per unit, the races found, and the trace volume.
  std::optional<aoc::sim::Profile> sim_profile;
  std::map<std::string, double> t_hw_unit_us;
  std::vector<aoc::sim::Hazard> hazards;
  uint64_t api_records = 0;    // trace records of API calls, all blocks
  uint64_t kernel_blocks = 0;  // executed basic blocks of kernel code between them (scalar work)
  uint64_t api_blocks = 0;     // API blocks that ran a coverage callback (harness cost, not simulated)
};

struct CandidateReport {
  std::string op, candidate_dir, package_dir, candidate_hash;
  uint64_t seed = 0;
  std::string soc, case_set;
  TuningConfig config;
  int trials = 2;  // CandidateEvalOptions::trials
  Verdict verdict = Verdict::Error;
  std::string message;
  std::vector<build::Diagnostic> diagnostics;    // compile_error
  std::vector<SourceFinding> findings;    // rejected
  std::vector<CaseResult> cases;
  bool network_isolated = false;
  std::string isolation;  // how the cases' children were isolated (SandboxResult::isolation)
  std::string build_isolation;  // how the compiler was isolated ("" when every build came from the cache)
  bool from_store = false;
  double seconds = 0;
};

// Candidates whose folder cannot be loaded get an Error report (never an exception).
CandidateReport evaluate_candidate(const Candidate& c, build::Builder& builder, const CandidateEvalOptions& opt);

nlohmann::json to_json(const CandidateReport& r);
CandidateReport report_from_json(const nlohmann::json& j);

// The worst case verdict and its message, "case <name>: <message>".
void summarise(CandidateReport& r);

}  // namespace aoc::eval
