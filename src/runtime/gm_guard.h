// GM seen by a kernel the way the device sees it. The addresses a kernel receives for its GM
// arguments lie in a reserved range with no access rights, the same size as the real buffers and
// with the same low address bits; GlobalTensor translates them to the real bytes (GmRegistry::
// Alloc::delta), so DataCopy, GetValue and SetValue work and every byte they move is traced. A raw
// dereference (`((float*)x)[i] = ...`) faults, and runs as the scalar GM access it is on the device
// (runtime/raw_gm_step.h): traced and charged like GetValue / SetValue. A raw access outside every
// buffer, or a raw write past a buffer's padding, stops the launch with an error naming the buffer.
//
// Faults are caught on the core's own thread: SIGSEGV at an address of a live reservation, on a
// thread running a guarded body, either opens the page for one single-stepped instruction (the
// SIGTRAP after it closes the page) or jumps back to run_guarded (siglongjmp). The kernel's frames
// are then abandoned without destructors; the core's state lives outside them, and the launch
// stops there. Faults anywhere else go to the handlers installed before.
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
// made a raw GM access that cannot run (out of bounds).
bool run_guarded(const std::function<void()>& body, std::string& fault);

}  // namespace aoc::runtime
