// What isolation costs per case: one sandboxed run of a trivial program (/bin/true) in
// the namespace mode (new user, mount, PID, IPC and network namespaces, the view of the
// file system assembled and pivoted into) against the process-group mode, and one
// contained call (a forked child answering through a pipe, as goldens and InferShape run).
// The difference between the first two is the namespace setup an evaluated case pays.
//   build/bin/sandbox_bench
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>

#include "base/sandbox.h"
#include "eval/contained.h"

namespace {
namespace fs = std::filesystem;

void run_true(benchmark::State& state, bool namespaces) {
  std::string t = (fs::temp_directory_path() / "aoc-sandbox-bench-XXXXXX").string();
  const fs::path dir = ::mkdtemp(t.data());
  aoc::base::SandboxLimits l;
  l.namespaces = namespaces;
  std::string isolation;
  for (auto _ : state) {
    const aoc::base::SandboxResult r = aoc::base::run_sandboxed({"/bin/true"}, dir, l);
    if (!r.exited || r.exit_code != 0) state.SkipWithError(("run failed: " + r.start_error).c_str());
    isolation = r.isolation;
  }
  state.SetLabel(isolation);
  fs::remove_all(dir);
}

void BM_SandboxNamespaces(benchmark::State& state) { run_true(state, true); }
void BM_SandboxProcessGroup(benchmark::State& state) { run_true(state, false); }

void BM_ContainedCall(benchmark::State& state) {
  for (auto _ : state) {
    const auto r = aoc::eval::run_contained("a call", [] { return std::string("answer"); }, 10);
    if (!r.ok) state.SkipWithError(r.error.c_str());
  }
}

BENCHMARK(BM_SandboxNamespaces)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_SandboxProcessGroup)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_ContainedCall)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace

BENCHMARK_MAIN();
