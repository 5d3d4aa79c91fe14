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

// Per guarded thread: where to jump back to, and what the fault was.
struct GuardedThread {
  sigjmp_buf jump;
  uintptr_t address = 0;
  bool write = false;
};
thread_local GuardedThread* tls_guarded = nullptr;

struct sigaction g_previous;
std::once_flag g_install_once;

bool reserved(uintptr_t a) {
  for (const auto& r : g_reservations)
    if (a >= r.lo.load(std::memory_order_acquire) && a < r.hi.load(std::memory_order_acquire)) return true;
  return false;
}

void on_segv(int sig, siginfo_t* info, void* context) {
  const auto a = reinterpret_cast<uintptr_t>(info->si_addr);
  if (GuardedThread* g = tls_guarded; g != nullptr && reserved(a)) {
    g->address = a;
#if defined(__x86_64__)
    g->write = (static_cast<ucontext_t*>(context)->uc_mcontext.gregs[REG_ERR] & 2) != 0;
#endif
    siglongjmp(g->jump, 1);
  }
  // Not ours: let the handler installed before have it (the default kills the process with
  // SIGSEGV once the faulting instruction runs again).
  if (g_previous.sa_flags & SA_SIGINFO) {
    if (g_previous.sa_sigaction != nullptr) return g_previous.sa_sigaction(sig, info, context);
  } else if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
    return g_previous.sa_handler(sig);
  }
  sigaction(SIGSEGV, &g_previous, nullptr);
}

void install_handler() {
  std::call_once(g_install_once, [] {
    struct sigaction sa {};
    sa.sa_sigaction = &on_segv;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &g_previous);
  });
}

// What the kernel touched, for the message: the buffer it is in or after.
std::string describe_fault(uintptr_t a, bool write) {
  std::ostringstream os;
  os << "kernel dereferenced GM through a raw pointer (" << (write ? "write to" : "access to") << " address 0x"
     << std::hex << a << std::dec;
  const auto alloc = aoc::GmRegistry::instance().find(reinterpret_cast<const void*>(a));
  if (alloc.hi != 0) {
    os << ", byte " << a - alloc.lo << " of buffer '" << alloc.name << "'";
  } else if (const auto before = aoc::GmRegistry::instance().find_before(reinterpret_cast<const void*>(a));
             before.hi != 0) {
    os << ", " << a - before.hi << " bytes past the end of buffer '" << before.name << "' (" << before.hi - before.lo
       << " bytes)";
  }
  os << "): GM is reachable only through the API (GlobalTensor with DataCopy / GetValue / SetValue), so that every "
        "byte moved is traced and costs what it costs on the device";
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
    fault = describe_fault(g.address, g.write);
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
