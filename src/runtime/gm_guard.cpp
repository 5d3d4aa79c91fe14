#include "runtime/gm_guard.h"

#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <csetjmp>
#include <mutex>
#include <new>
#include <sstream>

#include "aoc/core_state.h"
#include "runtime/raw_gm_step.h"

namespace aoc::runtime {

namespace {

constexpr size_t kSpacing = size_t{64} << 10;  // between buffers: a raw overrun lands in no buffer
constexpr size_t kPage = 4096;

size_t round_up(size_t n, size_t k) { return (n + k - 1) / k * k; }

// Reservations the signal handler may look at: plain words, written before the guarded code
// runs and cleared after it stopped, so the handler reads them without locks.
struct Reservation {
  std::atomic<uintptr_t> lo{0}, hi{0};
  std::atomic<const GmGuard*> owner{nullptr};
};
std::array<Reservation, 256> g_reservations;

// Per guarded thread: where to jump back to, what the fault was, and the raw access in flight.
struct GuardedThread {
  sigjmp_buf jump;
  uintptr_t address = 0;
  bool write = false;
  std::string message;  // set instead of address when the raw access itself was refused
  RawStep step;
};

#if defined(__x86_64__)
constexpr greg_t kTrapFlag = 0x100;  // EFLAGS.TF: trap after the next instruction
#endif
thread_local GuardedThread* tls_guarded = nullptr;

struct sigaction g_previous, g_previous_trap;
std::once_flag g_install_once;

bool reserved(uintptr_t a) {
  for (const auto& r : g_reservations)
    if (a >= r.lo.load(std::memory_order_acquire) && a < r.hi.load(std::memory_order_acquire)) return true;
  return false;
}

// Hands a signal that is not ours to the handler installed before it.
void chain(const struct sigaction& previous, int sig, siginfo_t* info, void* context) {
  if (previous.sa_flags & SA_SIGINFO) {
    if (previous.sa_sigaction != nullptr) return previous.sa_sigaction(sig, info, context);
  } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
    return previous.sa_handler(sig);
  }
  // The default action: restored, it kills the process once the faulting instruction runs again.
  sigaction(sig, &previous, nullptr);
}

// A fault at a guarded address: a raw GM access. Inside a buffer it runs (raw_gm_step.h): the
// page opens for one single-stepped instruction. Outside every buffer the launch stops.
void on_segv(int sig, siginfo_t* info, void* context) {
  const auto a = reinterpret_cast<uintptr_t>(info->si_addr);
  GuardedThread* g = tls_guarded;
  if (g == nullptr || !reserved(a)) return chain(g_previous, sig, info, context);
#if defined(__x86_64__)
  auto& regs = static_cast<ucontext_t*>(context)->uc_mcontext.gregs;
  const bool write = (regs[REG_ERR] & 2) != 0;
  const auto alloc = aoc::GmRegistry::instance().find(reinterpret_cast<const void*>(a));
  if (alloc.hi != 0 && open_raw_page(g->step, a, alloc, write)) {
    regs[REG_EFL] |= kTrapFlag;
    return;
  }
  g->write = write;
#endif
  abandon_raw_step(g->step);
  g->address = a;
  siglongjmp(g->jump, 1);
}

// The single step after a raw access: the instruction ran on the open pages.
void on_trap(int sig, siginfo_t* info, void* context) {
  GuardedThread* g = tls_guarded;
  if (g == nullptr || g->step.open == 0) return chain(g_previous_trap, sig, info, context);
#if defined(__x86_64__)
  static_cast<ucontext_t*>(context)->uc_mcontext.gregs[REG_EFL] &= ~kTrapFlag;
#endif
  std::string refused = finish_raw_step(g->step);
  if (refused.empty()) return;
  g->message = std::move(refused);
  siglongjmp(g->jump, 1);
}

void install_handler() {
  std::call_once(g_install_once, [] {
    struct sigaction sa {};
    sa.sa_sigaction = &on_segv;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &g_previous);
    sa.sa_sigaction = &on_trap;
    sigaction(SIGTRAP, &sa, &g_previous_trap);
  });
}

// A raw access that cannot run: outside every buffer (or, on a machine that cannot single-step
// instructions, any raw access), for the message.
std::string describe_fault(uintptr_t a, bool write) {
  std::ostringstream os;
  os << "kernel " << (write ? "wrote to" : "read") << " GM through a raw pointer at address 0x" << std::hex << a
     << std::dec;
  const auto alloc = aoc::GmRegistry::instance().find(reinterpret_cast<const void*>(a));
  if (alloc.hi != 0) {
    os << ", byte " << a - alloc.lo << " of buffer '" << alloc.name
       << "': raw GM accesses run only on x86-64 Linux here; use GlobalTensor GetValue / SetValue";
  } else if (const auto before = aoc::GmRegistry::instance().find_before(reinterpret_cast<const void*>(a));
             before.hi != 0) {
    os << ", " << a - before.hi << " bytes past the end of buffer '" << before.name << "' (" << before.hi - before.lo
       << " bytes): out of bounds";
  } else {
    os << ", outside every buffer passed to the kernel";
  }
  return os.str();
}

}  // namespace

GmGuard::GmGuard(const std::vector<GuardedBuffer>& buffers) : buffers_(buffers) {
  install_handler();
  std::vector<size_t> offsets;
  size_t total = kSpacing;
  for (const auto& b : buffers) {
    const uintptr_t low_bits = reinterpret_cast<uintptr_t>(b.real) % kPage;  // same alignment as the real bytes
    offsets.push_back(total + low_bits);
    total += round_up(low_bits + aoc::GmRegistry::padded_size(b.bytes), kPage) + kSpacing;
  }
  base_ = mmap(nullptr, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base_ == MAP_FAILED) throw std::bad_alloc();
  size_ = total;
  for (size_t s = 0; s < g_reservations.size(); ++s) {
    const GmGuard* none = nullptr;
    if (g_reservations[s].owner.compare_exchange_strong(none, this)) {
      slot_ = static_cast<int>(s);
      break;
    }
  }
  if (slot_ >= 0) {
    g_reservations[slot_].lo.store(reinterpret_cast<uintptr_t>(base_), std::memory_order_release);
    g_reservations[slot_].hi.store(reinterpret_cast<uintptr_t>(base_) + total, std::memory_order_release);
  }
  auto& reg = aoc::GmRegistry::instance();
  for (size_t i = 0; i < buffers.size(); ++i) {
    if (buffers[i].real == nullptr) {
      kernel_.push_back(nullptr);
      continue;
    }
    std::byte* k = static_cast<std::byte*>(base_) + offsets[i];
    kernel_.push_back(k);
    reg.add(k, buffers[i].bytes, buffers[i].name,
            reinterpret_cast<intptr_t>(buffers[i].real) - reinterpret_cast<intptr_t>(k));
  }
}

GmGuard::~GmGuard() {
  auto& reg = aoc::GmRegistry::instance();
  for (void* k : kernel_)
    if (k != nullptr) reg.remove(k);
  if (slot_ >= 0) {
    g_reservations[slot_].hi.store(0, std::memory_order_release);
    g_reservations[slot_].lo.store(0, std::memory_order_release);
    g_reservations[slot_].owner.store(nullptr, std::memory_order_release);
  }
  munmap(base_, size_);
}

bool run_guarded(const std::function<void()>& body, std::string& fault) {
  GuardedThread g;
  GuardedThread* const outer = tls_guarded;
  if (sigsetjmp(g.jump, 1) != 0) {
    tls_guarded = outer;
    fault = g.message.empty() ? describe_fault(g.address, g.write) : std::move(g.message);
    return false;
  }
  tls_guarded = &g;
  try {
    body();
  } catch (...) {
    tls_guarded = outer;
    throw;
  }
  tls_guarded = outer;
  return true;
}

}  // namespace aoc::runtime
