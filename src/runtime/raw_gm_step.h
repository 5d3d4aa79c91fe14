// Raw GM pointer accesses, run as the device runs them. On the device, `x[i]` through a
// `__gm__` pointer is a scalar load or store: legal, and slow (it goes through the scalar unit
// and its data cache). Here the kernel's GM addresses have no access rights (gm_guard.h), so such
// an access faults; the fault handler opens the page for that one instruction, with the real
// bytes copied in, lets the CPU execute it single-stepped, and after it copies back the bytes it
// changed, closes the page again and charges the access to the core's trace as the scalar GM
// access it is (the same record as GlobalTensor::GetValue / SetValue, at the same cost).
//
// Only one core runs kernel code at a time (runtime/baton.h), so an open page is never seen by
// another core. Accesses outside every buffer, or writes past a buffer's padding, still stop the
// launch. A read is traced as one byte at the faulting address (the instruction's width is not
// known without decoding it); a write as the span of bytes it changed.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "aoc/core_state.h"

namespace aoc::runtime {

constexpr size_t kRawPageBytes = 4096;

// The raw accesses of one instruction in flight on a guarded thread.
struct RawStep {
  // An instruction touches at most two pages of a buffer (an access across a page boundary); a
  // few more are allowed for string and vector instructions.
  static constexpr int kMaxPages = 4;
  struct Page {
    uintptr_t kernel_page = 0;
    aoc::GmRegistry::Alloc alloc;  // kernel-address bounds and delta to the real bytes
    alignas(64) std::byte before[kRawPageBytes];
  };
  Page pages[kMaxPages];
  int open = 0;
  uintptr_t first_address = 0;  // the first faulting address of the instruction
  bool write = false;
};

// Opens the page holding `address`, inside allocation `alloc`, read-write with the real bytes of
// the allocation copied in. False when no page slot is left.
bool open_raw_page(RawStep& step, uintptr_t address, const aoc::GmRegistry::Alloc& alloc, bool write);

// After the instruction ran: copies the bytes it changed to the real buffers, closes the pages
// and charges the access to the calling core. Returns an error message (and copies nothing)
// when it changed bytes outside its buffers' padded extent.
std::string finish_raw_step(RawStep& step);

// Closes the open pages without copying anything back (the launch is stopping).
void abandon_raw_step(RawStep& step);

}  // namespace aoc::runtime
