// The judge: comparing a kernel output with the golden reference (src/package/compare.cpp), per
// element, as every case of every candidate does. 4 M elements per output (a mid-sized
// performance case), the output equal to the rounded reference except one element in 16 that is
// one unit in the last place off (a kernel that computes in another order). Second argument 1:
// the reference already rounded to the output dtype, as the evaluator's references are
// (eval/judge.h); 0: rounded per element by the comparison.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "base/rng.h"
#include "package/compare.h"

namespace {

constexpr size_t kElements = size_t(4) << 20;

void BM_CompareOutput(benchmark::State& state) {
  const auto type = static_cast<aoc::package::ElemType>(state.range(0));
  aoc::base::Xoshiro256 rng(7);
  std::vector<double> golden(kElements);
  aoc::package::TypedBuffer actual(type, kElements);
  for (size_t i = 0; i < kElements; ++i) {
    golden[i] = rng.unit() * 8.0 - 4.0;
    actual.set(i, golden[i]);
    if (i % 16 == 5) actual.set(i, actual.get(i) * (1.0 + 1.0 / 2048.0));
  }
  const bool rounded = state.range(1) != 0;
  if (rounded) aoc::package::round_reference(type, golden);
  aoc::package::CompareResult r;
  for (auto _ : state) {
    r = aoc::package::compare_output(actual, golden, aoc::package::Tolerance{}, 0xFF, nullptr, rounded);
    benchmark::DoNotOptimize(r);
  }
  state.counters["elements_per_s"] =
      benchmark::Counter(double(kElements) * double(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["pass"] = r.pass;
}
BENCHMARK(BM_CompareOutput)
    ->ArgsProduct({{int(aoc::package::ElemType::F16), int(aoc::package::ElemType::F32)}, {0, 1}})
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
