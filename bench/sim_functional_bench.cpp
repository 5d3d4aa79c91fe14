// Elements per second of the functional phase: a double-buffered z = x + y kernel (half)
// run on one simulated core in this process, computing real results and recording its
// trace, as the harness runs a candidate. Two forms: vector Add over 32 KB tiles (the
// production form), and the same pipeline with the add done per element by
// GetValue/SetValue (the scalar form of Add ladder case 0/1, which records scalar accesses).
// The benchmark binary is not built with the coverage instrumentation of candidate
// kernels, so executed basic blocks are not counted here.
#include <benchmark/benchmark.h>

#include <vector>

#include "kernel_operator.h"

namespace {

constexpr int32_t kBuffers = 2;
constexpr uint32_t kTile = 16384;  // halves: 32 KB per buffer

template <bool kScalar>
class AddKernel {
 public:
  void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n) {
    tiles_ = n / kTile;
    xGm_.SetGlobalBuffer((__gm__ half*)x, n);
    yGm_.SetGlobalBuffer((__gm__ half*)y, n);
    zGm_.SetGlobalBuffer((__gm__ half*)z, n);
    pipe_.InitBuffer(inX_, kBuffers, kTile * sizeof(half));
    pipe_.InitBuffer(inY_, kBuffers, kTile * sizeof(half));
    pipe_.InitBuffer(outZ_, kBuffers, kTile * sizeof(half));
  }
  void Process() {
    for (uint32_t i = 0; i < tiles_; ++i) {
      auto x = inX_.AllocTensor<half>();
      auto y = inY_.AllocTensor<half>();
      AscendC::DataCopy(x, xGm_[i * kTile], kTile);
      AscendC::DataCopy(y, yGm_[i * kTile], kTile);
      inX_.EnQue(x);
      inY_.EnQue(y);
      x = inX_.DeQue<half>();
      y = inY_.DeQue<half>();
      auto z = outZ_.AllocTensor<half>();
      if constexpr (kScalar) {
        for (uint32_t k = 0; k < kTile; ++k) z.SetValue(k, half(float(x.GetValue(k)) + float(y.GetValue(k))));
      } else {
        AscendC::Add(z, x, y, kTile);
      }
      outZ_.EnQue(z);
      inX_.FreeTensor(x);
      inY_.FreeTensor(y);
      z = outZ_.DeQue<half>();
      AscendC::DataCopy(zGm_[i * kTile], z, kTile);
      outZ_.FreeTensor(z);
    }
  }

 private:
  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::QuePosition::VECIN, kBuffers> inX_, inY_;
  AscendC::TQue<AscendC::QuePosition::VECOUT, kBuffers> outZ_;
  AscendC::GlobalTensor<half> xGm_, yGm_, zGm_;
  uint32_t tiles_ = 0;
};

// GM buffers known to the simulator's address checks for the lifetime of a benchmark.
struct Gm {
  explicit Gm(size_t n, const char* name) : data(n, half(1.5f)) {
    aoc::GmRegistry::instance().add(data.data(), n * sizeof(half), name);
  }
  ~Gm() { aoc::GmRegistry::instance().remove(data.data()); }
  GM_ADDR addr() { return reinterpret_cast<GM_ADDR>(data.data()); }
  std::vector<half> data;
};

template <bool kScalar>
void BM_FunctionalAdd(benchmark::State& state) {
  const auto n = static_cast<uint32_t>(state.range(0));
  Gm x(n, "x"), y(n, "y"), z(n, "z");
  size_t records = 0;
  for (auto _ : state) {
    aoc::core().init(aoc::CoreLimits{});
    AddKernel<kScalar> k;
    k.Init(x.addr(), y.addr(), z.addr(), n);
    k.Process();
    records = aoc::core().trace.records.size();
    benchmark::DoNotOptimize(z.data.data());
  }
  if (float(z.data[n - 1]) != 3.0f) state.SkipWithError("wrong sum");
  state.SetItemsProcessed(int64_t(state.iterations()) * n);  // items/s = elements per second
  state.counters["trace_records"] = double(records);
}

BENCHMARK(BM_FunctionalAdd<false>)->Name("FunctionalAdd/vector")->Arg(1 << 22)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FunctionalAdd<true>)->Name("FunctionalAdd/scalar")->Arg(1 << 20)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
