#include "aoc/launch.h"

#include <array>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

#include "aoc/error.h"
#include "aoc/macros.h"
#include "aoc/mem_workspace.h"
#include "aoc/sys_var.h"
#include "aoc/vec/reduce.h"
#include "runtime/auto_sync.h"
#include "runtime/baton.h"
#include "runtime/coverage.h"
#include "runtime/gm_guard.h"

namespace aoc::runtime {

const char* core_type_name(int32_t core_type) {
  return core_type == AscendC::AIC ? "AIC" : core_type == AscendC::AIV ? "AIV" : "MIX";
}

namespace {

// Identity of one logical core of the launch.
struct CoreSlot {
  int32_t core_type = AscendC::AIV;
  int64_t block_idx = 0;  // GetBlockIdx()
  int64_t group = 0;      // raw block_idx builtin
  int64_t sub_block_idx = 0;
  int64_t sub_block_num = 1;
};

std::vector<CoreSlot> layout(const LaunchConfig& cfg) {
  std::vector<CoreSlot> slots;
  const int64_t n = cfg.block_dim;
  for (int64_t g = 0; g < n; ++g) {
    switch (cfg.mode) {
      case CoreMode::AIV: slots.push_back({AscendC::AIV, g, g, 0, 1}); break;
      case CoreMode::AIC: slots.push_back({AscendC::AIC, g, g, 0, 1}); break;
      case CoreMode::MIX:
        // On the two AIVs of a group GetBlockIdx() is 2g and 2g+1 while the raw builtin is g.
        slots.push_back({AscendC::AIC, g, g, 0, 1});
        slots.push_back({AscendC::AIV, 2 * g, g, 0, 2});
        slots.push_back({AscendC::AIV, 2 * g + 1, g, 1, 2});
        break;
    }
  }
  return slots;
}

std::string label(const CoreSlot& s) {
  return "block " + std::to_string(s.block_idx) + " (" + core_type_name(s.core_type) + ")";
}

struct BarrierCtx {
  Baton* baton;
  size_t index;
  std::string* deadlock;  // where a detected deadlock is described
  std::mutex* mu;
};

void barrier_trampoline(void* p) {
  auto* ctx = static_cast<BarrierCtx*>(p);
  std::string msg = ctx->baton->barrier(ctx->index);
  if (!msg.empty()) {
    {
      std::lock_guard<std::mutex> g(*ctx->mu);
      if (ctx->deadlock->empty()) *ctx->deadlock = msg;
    }
    throw LaunchAborted{};
  }
}

// Sets the per-core builtins the kernel reads.
void enter_core(CoreState& cs, const CoreSlot& s, const LaunchConfig& cfg) {
  cs.init(cfg.limits);
  cs.block_idx = s.block_idx;
  cs.block_num = cfg.block_dim;
  cs.sub_block_idx = s.sub_block_idx;
  cs.sub_block_num = s.sub_block_num;
  cs.core_type = s.core_type;
  cs.tiling_key = cfg.tiling_key;
  cs.kernel_type = -1;
  cs.trace.enabled = cfg.record_trace;
  tls_core = &cs;
  reset_scalar_counters();
  g_coreType = s.core_type;
  ::block_idx = s.group;
  ::block_num = cfg.block_dim;
  ::sub_block_idx = s.sub_block_idx;
  ::sub_block_num = s.sub_block_num;
  // Per-core registers kept in thread-locals: a thread runs several cores one after the other
  // (Baton), so each core starts them as a fresh thread would.
  aoc::sys_workspace = nullptr;
  aoc::vec::reduce_register = {};
}

}  // namespace

LaunchResult launch(const LaunchConfig& cfg, const std::function<void()>& body) {
  LaunchResult result;
  if (cfg.block_dim == 0 || cfg.block_dim > 65535) {
    result.ok = false;
    result.error = "blockDim " + std::to_string(cfg.block_dim) + " is outside [1, 65535]";
    return result;
  }
  const std::vector<CoreSlot> slots = layout(cfg);
  std::vector<int> classes;
  std::vector<std::string> labels;
  for (const auto& s : slots) {
    // In MIX launches SyncAll synchronises the cores of one type (the default AIV-only
    // SyncAll; cube cores sync among themselves); otherwise all cores take part.
    classes.push_back(cfg.mode == CoreMode::MIX ? s.core_type : 0);
    labels.push_back(label(s));
  }
  Baton baton(classes, labels);
  std::mutex mu;  // guards the failure fields below
  std::string deadlock;
  bool failed = false;
  size_t completed = 0;
  result.cores.resize(slots.size());

  auto fail_with = [&](const CoreSlot& s, std::string msg, const KernelError* ke) {
    std::lock_guard<std::mutex> g(mu);
    if (failed) return;
    failed = true;
    result.ok = false;
    result.failed_block = s.block_idx;
    result.failed_core_type = s.core_type;
    result.error = label(s) + ": " + msg;
    if (ke != nullptr) {
      result.failed_api = ke->api();
      result.failed_file = ke->file();
      result.failed_line = ke->line();
    }
  };

  // Runs core i; returns the core this thread runs next (Baton::finish), or npos.
  auto run_core = [&](size_t i) -> size_t {
    const CoreSlot& s = slots[i];
    CoreRun& out = result.cores[i];
    out.core_type = s.core_type;
    out.block_idx = s.block_idx;
    out.group = s.group;
    out.sub_block_idx = s.sub_block_idx;
    try {
      baton.wait_turn(i);
    } catch (const LaunchAborted&) {
      return Baton::npos;
    }
    auto cs = std::make_unique<CoreState>();
    BarrierCtx bctx{&baton, i, &deadlock, &mu};
    enter_core(*cs, s, cfg);
    cs->barrier_fn = &barrier_trampoline;
    cs->barrier_ctx = &bctx;
    bool finished = false;
    try {
      std::string fault;
      if (run_guarded(body, fault)) {
        // Scalar work after the last API call has no call site to name.
        cs->trace.flush_kernel_blocks(std::source_location{});
        insert_toolchain_syncs(cs->trace, cs->warnings);
        finished = true;
      } else {
        fail_with(s, fault, nullptr);
      }
    } catch (const KernelError& e) {
      fail_with(s, e.what(), &e);
    } catch (const LaunchAborted&) {
    } catch (const std::exception& e) {
      fail_with(s, std::string("exception: ") + e.what(), nullptr);
    } catch (...) {
      fail_with(s, "unknown exception", nullptr);
    }
    out.trace = std::move(cs->trace);
    out.printed = std::move(cs->printed);
    out.api_blocks = aoc::tls_api_blocks;
    {
      std::lock_guard<std::mutex> g(mu);
      if (cs->kernel_type >= 0 && result.kernel_type < 0) result.kernel_type = cs->kernel_type;
      for (const auto& [msg, n] : cs->warnings) result.warnings[msg] += n;
    }
    tls_core = nullptr;
    if (!finished) {
      baton.abort();
      return Baton::npos;
    }
    {
      std::lock_guard<std::mutex> g(mu);
      ++completed;
    }
    std::string msg;
    const size_t next = baton.finish(i, msg);
    if (!msg.empty()) {
      std::lock_guard<std::mutex> g(mu);
      if (deadlock.empty()) deadlock = msg;
    }
    return next;
  };
  // A thread runs its first core and then every core the baton hands it (see Baton).
  auto run_thread = [&](size_t first) {
    for (size_t i = first; i != Baton::npos;) i = run_core(i);
    baton.thread_done(first);
  };

  std::vector<std::thread> threads(slots.size());
  for (;;) {
    size_t next = baton.next_to_start();
    for (size_t done : baton.take_finished())
      if (threads[done].joinable()) threads[done].join();
    if (next == Baton::npos) break;
    if (next < slots.size()) threads[next] = std::thread(run_thread, next);
  }
  for (auto& t : threads)
    if (t.joinable()) t.join();

  if (!failed && !deadlock.empty()) {
    result.ok = false;
    result.error = deadlock;
  } else if (!failed && completed < slots.size()) {
    result.ok = false;
    result.error = "launch stopped with " + std::to_string(slots.size() - completed) +
                   " core(s) waiting in SyncAll that can never continue";
  }
  return result;
}

namespace {

using Invoker = void (*)(void*, uint8_t* const*);

template <size_t... I>
void call_with(void* fn, uint8_t* const* a, std::index_sequence<I...>) {
  using Fn = void (*)(decltype((void)I, static_cast<uint8_t*>(nullptr))...);
  reinterpret_cast<Fn>(fn)(a[I]...);
}

template <size_t... N>
constexpr std::array<Invoker, sizeof...(N)> make_invokers(std::index_sequence<N...>) {
  return {[](void* fn, uint8_t* const* a) { call_with(fn, a, std::make_index_sequence<N>{}); }...};
}

constexpr auto kInvokers = make_invokers(std::make_index_sequence<kMaxKernelArgs + 1>{});

}  // namespace

LaunchResult launch_kernel(const LaunchConfig& cfg, void* kernel, const std::vector<GmArg>& args) {
  if (kernel == nullptr || args.size() > kMaxKernelArgs) {
    LaunchResult r;
    r.ok = false;
    r.error = kernel == nullptr ? "kernel entry is null"
                                : "a kernel takes at most " + std::to_string(kMaxKernelArgs) + " arguments, got " +
                                      std::to_string(args.size());
    return r;
  }
  auto& reg = GmRegistry::instance();
  std::vector<const void*> registered;
  std::vector<GuardedBuffer> guarded;
  for (const auto& a : args) {
    guarded.push_back({a.direct ? nullptr : a.ptr, a.bytes, a.name.c_str()});
    if (a.ptr == nullptr || !a.direct) continue;
    if (reg.find(a.ptr).lo == reinterpret_cast<uintptr_t>(a.ptr)) continue;  // already known
    reg.add(a.ptr, a.bytes, a.name.c_str());
    registered.push_back(a.ptr);
  }
  const GmGuard guard(guarded);
  std::vector<uint8_t*> kernel_args;
  for (size_t i = 0; i < args.size(); ++i)
    kernel_args.push_back(static_cast<uint8_t*>(args[i].direct ? args[i].ptr : guard.kernel_address(i)));
  Invoker invoke = kInvokers[args.size()];
  LaunchResult r = launch(cfg, [&] { invoke(kernel, kernel_args.data()); });
  for (const void* p : registered) reg.remove(p);
  return r;
}

}  // namespace aoc::runtime
