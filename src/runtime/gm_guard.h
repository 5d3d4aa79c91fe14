// GM reachable only through the API. The addresses a kernel receives for its GM arguments lie
// in a reserved range with no access rights, the same size as the real buffers and with the
// same low address bits; GlobalTensor translates them to the real bytes (GmRegistry::Alloc::
// delta), so DataCopy, GetValue and SetValue work and every byte they move is traced. A raw
// dereference (`((float*)x)[i] = ...`) or a raw write past a buffer's end faults instead, and
// the fault becomes the launch's error: "kernel dereferenced GM through a raw pointer".
//
// The fault is caught on the core's own thread: SIGSEGV at an address of a live reservation,
// on a thread running a guarded body, jumps back to run_guarded (siglongjmp). The kernel's
// frames are abandoned without destructors; the core's state lives outside them, and the
// launch stops there. Faults anywhere else go to the handler installed before.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace aoc::runtime {

// One buffer to guard: its real bytes and their count (the runtime's padding is added).
struct GuardedBuffer {
  void* real = nullptr;
  size_t bytes = 0;
  const char* name = "";
};

// The reservation of one launch. Registers each buffer's kernel-visible range in
// aoc::GmRegistry (with the delta to the real bytes) for its lifetime.
class GmGuard {
 public:
  explicit GmGuard(const std::vector<GuardedBuffer>& buffers);
  ~GmGuard();
  GmGuard(const GmGuard&) = delete;
  GmGuard& operator=(const GmGuard&) = delete;

  // The address the kernel gets for buffer i (null for a null buffer).
  void* kernel_address(size_t i) const { return kernel_[i]; }

 private:
  void* base_ = nullptr;
  size_t size_ = 0;
  std::vector<void*> kernel_;
  std::vector<GuardedBuffer> buffers_;
  int slot_ = -1;  // index in the table the fault handler reads
};

// Runs `body` on the calling thread. Returns false, with `fault` describing it, when the body
// touched a guarded address directly.
bool run_guarded(const std::function<void()>& body, std::string& fault);

}  // namespace aoc::runtime
