// Simulated instructions per second of the timing engine: 48 AIV blocks, each a
// double-buffered copy-in / vector / copy-out loop with its flags, simulated instruction by
// instruction and with steady-state skipping.
#include <benchmark/benchmark.h>

#include "aoc/trace.h"
#include "sim/engine.h"
#include "sim/hazards.h"
#include "sim/soc.h"

namespace {

aoc::TraceRecord rec(aoc::RecKind k, aoc::Pipe p, const char* op) {
  aoc::TraceRecord r;
  r.kind = k;
  r.pipe = p;
  r.op = op;
  r.file = "bench_kernel.cpp";
  return r;
}

aoc::Trace pipelined_block(int iters, uint64_t gm_base) {
  using aoc::Pipe;
  using aoc::RecKind;
  aoc::Trace t;
  for (int i = 0; i < iters; ++i) {
    uint8_t b = uint8_t(i % 2);
    uint64_t in = b * 32768, out = 65536 + b * 32768;
    auto flag = [&](RecKind k, Pipe src, Pipe dst) {
      auto r = rec(k, src, k == RecKind::SetFlag ? "SetFlag" : "WaitFlag");
      r.peer = dst;
      r.event_id = b;
      r.implicit = true;
      t.records.push_back(r);
    };
    if (i >= 2) flag(RecKind::WaitFlag, Pipe::V, Pipe::MTE2);
    auto cin = rec(RecKind::Copy, Pipe::MTE2, "DataCopy");
    cin.bytes = cin.burst_bytes = 16384;
    cin.bursts = 1;
    cin.nreads = 1;
    cin.reads[0] = {aoc::Space::GM, gm_base + uint64_t(i) * 16384, gm_base + uint64_t(i + 1) * 16384};
    cin.has_write = true;
    cin.write = {aoc::Space::UB, in, in + 16384};
    t.records.push_back(cin);
    flag(RecKind::SetFlag, Pipe::MTE2, Pipe::V);
    flag(RecKind::WaitFlag, Pipe::MTE2, Pipe::V);
    if (i >= 2) flag(RecKind::WaitFlag, Pipe::MTE3, Pipe::V);
    auto add = rec(RecKind::Compute, Pipe::V, "Add");
    add.dtype = aoc::DType::F16;
    add.elems = 8192;
    add.nreads = 2;
    add.reads[0] = {aoc::Space::UB, in, in + 16384};
    add.reads[1] = {aoc::Space::UB, in + 256, in + 16384};
    add.has_write = true;
    add.write = {aoc::Space::UB, out, out + 16384};
    t.records.push_back(add);
    flag(RecKind::SetFlag, Pipe::V, Pipe::MTE2);
    flag(RecKind::SetFlag, Pipe::V, Pipe::MTE3);
    flag(RecKind::WaitFlag, Pipe::V, Pipe::MTE3);
    auto cout = rec(RecKind::Copy, Pipe::MTE3, "DataCopy");
    cout.bytes = cout.burst_bytes = 16384;
    cout.bursts = 1;
    cout.nreads = 1;
    cout.reads[0] = {aoc::Space::UB, out, out + 16384};
    cout.has_write = true;
    cout.write = {aoc::Space::GM, gm_base + (1u << 30) + uint64_t(i) * 16384, gm_base + (1u << 30) + uint64_t(i + 1) * 16384};
    t.records.push_back(cout);
    flag(RecKind::SetFlag, Pipe::MTE3, Pipe::V);
  }
  return t;
}

void BM_EngineInstructionsPerSecond(benchmark::State& state) {
  const aoc::sim::Soc soc = aoc::sim::load_soc("Ascend910B1");
  const int iters = int(state.range(0));
  std::vector<aoc::Trace> traces;
  const int nblocks = int(state.range(3));
  for (int c = 0; c < nblocks; ++c) traces.push_back(pipelined_block(iters, uint64_t(c) << 24));
  std::vector<aoc::sim::BlockTrace> blocks;
  size_t records = 0;
  for (const auto& t : traces) {
    blocks.push_back({&t, aoc::sim::CoreType::AIV});
    records += t.records.size();
  }
  aoc::sim::EngineOptions opt;
  opt.record_spans = state.range(1) != 0;
  opt.steady_state = state.range(2) != 0;
  double cycles = 0;
  uint64_t skipped = 0;
  for (auto _ : state) {
    auto r = aoc::sim::simulate(soc, blocks, opt);
    benchmark::DoNotOptimize(r.blocks.data());  // not the double itself: GCC's "+m,r" constraint mangles it
    cycles = r.cycles;
    skipped = r.skipped_instructions;
  }
  state.counters["records"] = double(records);
  state.counters["skipped"] = double(skipped);
  state.counters["simulated_us"] = benchmark::Counter(soc.cycles_to_us(cycles));
  state.counters["instr_per_s"] = benchmark::Counter(double(records) * state.iterations(), benchmark::Counter::kIsRate);
}
// Args: iterations per block, spans kept, steady-state skipping, blocks. "instr_per_s" counts
// every record of the traces, simulated or skipped: the effective rate. The 48-block loop is the
// large case; the 8- and 1-block loops are kernels that settle into a repeating state.
BENCHMARK(BM_EngineInstructionsPerSecond)
    ->Args({1000, 0, 0, 48})
    ->Args({1000, 0, 1, 48})
    ->Args({1000, 1, 0, 48})
    ->Args({6000, 0, 0, 8})
    ->Args({6000, 0, 1, 8})
    ->Args({48000, 0, 0, 1})
    ->Args({48000, 0, 1, 1})
    ->Unit(benchmark::kMillisecond);

// Simulations per second of a small kernel (8 blocks of 4 iterations, a few thousand
// elements, as most public test cases are): what a simulation costs beyond its instructions.
void BM_EngineSmallKernel(benchmark::State& state) {
  const aoc::sim::Soc soc = aoc::sim::load_soc("Ascend910B1");
  std::vector<aoc::Trace> traces;
  for (int c = 0; c < 8; ++c) traces.push_back(pipelined_block(4, uint64_t(c) << 24));
  std::vector<aoc::sim::BlockTrace> blocks;
  for (const auto& t : traces) blocks.push_back({&t, aoc::sim::CoreType::AIV});
  aoc::sim::EngineOptions opt;
  opt.record_spans = false;
  for (auto _ : state) {
    auto r = aoc::sim::simulate(soc, blocks, opt);
    benchmark::DoNotOptimize(r.blocks.data());
  }
  state.counters["sims_per_s"] = benchmark::Counter(double(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_EngineSmallKernel)->Unit(benchmark::kMicrosecond);

void BM_HazardCheckerRecordsPerSecond(benchmark::State& state) {
  aoc::Trace t = pipelined_block(int(state.range(0)), 0);
  for (auto _ : state) benchmark::DoNotOptimize(aoc::sim::check_hazards(t).size());
  state.counters["rec_per_s"] =
      benchmark::Counter(double(t.records.size()) * state.iterations(), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_HazardCheckerRecordsPerSecond)->Arg(10000)->Unit(benchmark::kMillisecond);

// The same loop with the scalar unit's own work in it, as real kernels have: one UB read before
// the loop and a scalar record per vector op, never waiting for another pipe.
void BM_HazardCheckerScalarNeverWaits(benchmark::State& state) {
  const aoc::Trace loop = pipelined_block(int(state.range(0)), 0);
  aoc::Trace t;
  auto get = rec(aoc::RecKind::Scalar, aoc::Pipe::S, "GetValue");
  get.nreads = 1;
  get.reads[0] = {aoc::Space::UB, 180000, 180002};
  t.records.push_back(get);
  for (const auto& r : loop.records) {
    t.records.push_back(r);
    if (r.kind == aoc::RecKind::Compute) t.records.push_back(rec(aoc::RecKind::Scalar, aoc::Pipe::S, "Scalar"));
  }
  for (auto _ : state) benchmark::DoNotOptimize(aoc::sim::check_hazards(t).size());
  state.counters["rec_per_s"] =
      benchmark::Counter(double(t.records.size()) * state.iterations(), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_HazardCheckerScalarNeverWaits)->Arg(10000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
