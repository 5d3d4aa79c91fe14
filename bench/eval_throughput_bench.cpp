// Candidates evaluated per second by the isolated evaluator (src/eval), for a small and a
// large operator, with a cold build cache (the compiler runs, precompiled header included),
// a cold candidate with the precompiled header already built, the same without a
// precompiled header ($AOC_NO_PCH's path), and a warm cache (the build is a lookup; the cases
// still run in the sandbox, since a stored result would not measure the evaluator). Warm:
// the inputs and golden outputs come from the reference cache, as for every candidate of an
// operator after the first in a search; warm_new_references: they are computed again, as for
// the first candidate (the cold modes compute them too); warm_file_references: they come from
// the files of the build cache, as for a later candidate evaluated by a new process (one
// `ascendopt eval` per candidate, one `optimize` per run of `bench`); cold_kernel_changed: each candidate
// is the package in a new folder with its kernel source edited (a comment), as a kernel
// rewrite makes one: the library is built again, op_host's object, the goldens, the
// precompiled header and the references come from the caches; kernel_repeated_elsewhere: the
// same edit each time, in a new folder each time (every run of a benchmark rewrites the baseline
// the same ways, each in its own run folder): the library comes from the cache.
// One evaluation = one candidate on every public case of its operator, as the optimizer
// counts it; Screen: the cheap first stage of the search-time cascade. Figures are in
// docs/performance.md; run with `make bench` or
//   build/bin/eval_throughput_bench --benchmark_filter=small
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <unistd.h>

#include "base/content_hash.h"
#include "build/builder.h"
#include "eval/candidate.h"
#include "eval/candidate_eval.h"
#include "eval/cascade.h"
#include "eval/reference_cache.h"
#include "tune/tuner.h"

namespace {
namespace fs = std::filesystem;

// small: one input, a few lines of kernel, small cases. large: an optimizer step with five
// tensors and 1e7-element cases (the cost of the simulated cases dominates).
struct OpChoice {
  const char* package;
  std::vector<std::string> cases;  // empty: every public case
};
const OpChoice kSmall{"ops/elementwise/abs", {}};
const OpChoice kLarge{"ops/optimizer/adam", {}};

enum class Cache {
  Cold,
  ColdCandidateWarmPch,
  ColdNoPch,
  ColdKernelChanged,
  KernelRepeatedElsewhere,
  WarmNewReferences,
  WarmFileReferences,
  Warm
};

fs::path fresh_dir(const std::string& tag) {
  fs::path d = fs::temp_directory_path() / ("aoc-eval-bench-" + tag + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// Empties a build cache except its precompiled headers.
void drop_builds_keep_pch(const fs::path& cache) {
  for (const auto& e : fs::directory_iterator(cache))
    if (e.path().filename() != "pch") fs::remove_all(e.path());
}

// A copy of `pkg` in new folder `n` whose kernel sources end with a comment naming `edit`.
fs::path kernel_changed_copy(const fs::path& pkg, const fs::path& under, int n, int edit) {
  const fs::path dst = under / ("candidate-" + std::to_string(n));
  fs::remove_all(dst);
  fs::copy(pkg, dst, fs::copy_options::recursive);
  for (const auto& e : fs::directory_iterator(dst / "op_kernel"))
    if (e.path().extension() == ".cpp") std::ofstream(e.path(), std::ios::app) << "// candidate " << edit << "\n";
  return dst;
}

void evaluate_once(aoc::build::Builder& builder, const aoc::eval::Candidate& cand, const OpChoice& op,
                   benchmark::State& state) {
  aoc::eval::CandidateEvalOptions opt = aoc::eval::default_candidate_eval_options();
  opt.seed = 1;
  opt.only_cases = op.cases;
  // The large operator's 1e7-element cases take tens of seconds each on a busy machine: the
  // default 30 s wall limit (meant to stop runaway kernels) would cut them off.
  opt.limits.wall_seconds = 900;
  opt.limits.cpu_seconds = 900;
  const aoc::eval::CandidateReport rep = aoc::eval::evaluate_candidate(cand, builder, opt);
  if (rep.verdict != aoc::eval::Verdict::Ok) state.SkipWithError(("evaluation failed: " + rep.message).c_str());
  state.counters["cases"] = double(rep.cases.size());
}

void BM_Evaluate(benchmark::State& state, const OpChoice& op, Cache mode) {
  aoc::build::BuilderOptions bo = aoc::build::default_builder_options();
  bo.cache_dir = fresh_dir(std::to_string(int(mode)));
  bo.precompiled_headers = mode != Cache::ColdNoPch;
  const fs::path pkg = bo.root / op.package;
  aoc::build::Builder builder(bo);
  const aoc::eval::Candidate cand = aoc::eval::load_candidate(pkg, aoc::base::tree_hash(bo.root / "include" / "ascendc"));
  const bool new_folders = mode == Cache::ColdKernelChanged || mode == Cache::KernelRepeatedElsewhere;
  if (mode == Cache::Warm || mode == Cache::WarmNewReferences || mode == Cache::WarmFileReferences ||
      mode == Cache::ColdCandidateWarmPch || new_folders)
    evaluate_once(builder, cand, op, state);
  const fs::path copies = fresh_dir("copies-" + std::to_string(int(mode)));
  int copy = 0;
  // The same rewrite in another folder: evaluated once before timing, as the first run of a
  // benchmark does before the others rewrite the baseline the same way.
  if (mode == Cache::KernelRepeatedElsewhere)
    evaluate_once(builder,
                  aoc::eval::load_candidate(kernel_changed_copy(pkg, copies, copy++, 0),
                                            aoc::base::tree_hash(bo.root / "include" / "ascendc")),
                  op, state);
  for (auto _ : state) {
    state.PauseTiming();
    if (mode == Cache::Cold || mode == Cache::ColdNoPch) {
      fs::remove_all(bo.cache_dir);
      fs::create_directories(bo.cache_dir);
    } else if (mode == Cache::ColdCandidateWarmPch) {
      drop_builds_keep_pch(bo.cache_dir);
    }
    // References: kept in memory (a later candidate in the same process), only on disk (a
    // later candidate in a new process), or computed again.
    if (mode != Cache::Warm && !new_folders) aoc::eval::ReferenceCache::shared().clear();
    if (mode == Cache::WarmNewReferences) fs::remove_all(bo.cache_dir / "references");
    aoc::build::Builder fresh(bo);  // forgets nothing on disk; a new builder like a new run
    const int edit = mode == Cache::KernelRepeatedElsewhere ? 0 : copy;
    const aoc::eval::Candidate edited =
        new_folders ? aoc::eval::load_candidate(kernel_changed_copy(pkg, copies, copy++, edit),
                                                aoc::base::tree_hash(bo.root / "include" / "ascendc"))
                    : cand;
    state.ResumeTiming();
    evaluate_once(fresh, edited, op, state);
  }
  fs::remove_all(copies);
  state.SetItemsProcessed(state.iterations());  // items/s = candidates evaluated per second
  fs::remove_all(bo.cache_dir);
}

// The screen of the search-time cascade (eval/cascade.h) as `ascendopt tune` runs it: the
// tuning cases (largest of at most 65536 elements per dtype, and the longest rows) plus the
// correctness probe, one trial each, warm build and references; what a candidate that cannot
// become the best costs, against a warm full evaluation above.
void BM_Screen(benchmark::State& state, const OpChoice& op) {
  aoc::build::BuilderOptions bo = aoc::build::default_builder_options();
  aoc::build::Builder builder(bo);
  const aoc::eval::Candidate cand =
      aoc::eval::load_candidate(bo.root / op.package, aoc::base::tree_hash(bo.root / "include" / "ascendc"));
  aoc::eval::CandidateEvalOptions opt = aoc::eval::default_candidate_eval_options();
  opt.seed = 1;
  opt.limits.wall_seconds = 900;
  aoc::eval::CascadeOptions co;
  co.timing_cases = aoc::tune::default_tuning_cases(cand.package, 65536);
  aoc::eval::Cascade(builder, opt, co).screen(cand);  // warms the build and the references
  for (auto _ : state) {
    aoc::eval::Cascade cascade(builder, opt, co);  // a new one: nothing kept from the last round
    const aoc::eval::CascadeScreen& s = cascade.screen(cand);
    if (!s.ok) state.SkipWithError(("screen failed: " + s.reason).c_str());
    state.counters["cases"] = double(s.report.cases.size());
  }
  state.SetItemsProcessed(state.iterations());
}

void register_all() {
  struct Mode {
    const char* name;
    Cache cache;
    int iterations;
  };
  const Mode modes[] = {{"cold", Cache::Cold, 1},
                        {"cold_candidate_pch_built", Cache::ColdCandidateWarmPch, 1},
                        {"cold_no_pch", Cache::ColdNoPch, 1},
                        {"cold_kernel_changed", Cache::ColdKernelChanged, 3},
                        {"kernel_repeated_elsewhere", Cache::KernelRepeatedElsewhere, 3},
                        {"warm_new_references", Cache::WarmNewReferences, 3},
                        {"warm_file_references", Cache::WarmFileReferences, 3},
                        {"warm", Cache::Warm, 3}};
  const std::pair<const char*, const OpChoice*> ops[] = {{"small", &kSmall}, {"large", &kLarge}};
  for (const auto& [opname, op] : ops)
    for (const auto& m : modes) {
      const std::string name = std::string("Evaluate/") + opname + "/" + m.name;
      benchmark::RegisterBenchmark(name.c_str(), [op = op, c = m.cache](benchmark::State& s) { BM_Evaluate(s, *op, c); })
          ->Iterations(m.iterations)
          ->Unit(benchmark::kSecond)
          ->UseRealTime();
    }
  for (const auto& [opname, op] : ops) {
    const std::string name = std::string("Screen/") + opname + "/warm";
    benchmark::RegisterBenchmark(name.c_str(), [op = op](benchmark::State& s) { BM_Screen(s, *op); })
        ->Iterations(5)
        ->Unit(benchmark::kSecond)
        ->UseRealTime();
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
