#include "runtime/raw_gm_step.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <source_location>

#include "aoc/trace.h"

namespace aoc::runtime {

namespace {

void* as_ptr(uintptr_t a) { return reinterpret_cast<void*>(a); }

void close_page(const RawStep::Page& p) { mprotect(as_ptr(p.kernel_page), kRawPageBytes, PROT_NONE); }

std::string quoted(const char* name) { return name[0] ? std::string("'") + name + "'" : std::string("(unnamed)"); }

}  // namespace

bool open_raw_page(RawStep& step, uintptr_t address, const aoc::GmRegistry::Alloc& alloc, bool write) {
  const uintptr_t page = address & ~uintptr_t{kRawPageBytes - 1};
  if (step.open == RawStep::kMaxPages) return false;
  if (mprotect(as_ptr(page), kRawPageBytes, PROT_READ | PROT_WRITE) != 0) return false;
  RawStep::Page& p = step.pages[step.open++];
  p.kernel_page = page;
  p.alloc = alloc;
  // The allocation's bytes on this page, padding included, as the real buffer holds them now.
  const uintptr_t lo = std::max(page, alloc.lo);
  const uintptr_t hi = std::min(page + kRawPageBytes, alloc.pad_hi);
  if (lo < hi) std::memcpy(as_ptr(lo), as_ptr(lo + alloc.delta), hi - lo);
  std::memcpy(p.before, as_ptr(page), kRawPageBytes);
  if (step.open == 1) step.first_address = address, step.write = write;
  else step.write = step.write || write;
  return true;
}

void abandon_raw_step(RawStep& step) {
  for (int i = 0; i < step.open; ++i) close_page(step.pages[i]);
  step.open = 0;
}

std::string finish_raw_step(RawStep& step) {
  // Refuse first, so a stray write reaches no real byte.
  for (int i = 0; i < step.open; ++i) {
    const RawStep::Page& p = step.pages[i];
    const auto* now = static_cast<const std::byte*>(as_ptr(p.kernel_page));
    if (std::memcmp(now, p.before, kRawPageBytes) == 0) continue;  // a read: nothing changed
    for (size_t b = 0; b < kRawPageBytes; ++b) {
      const uintptr_t a = p.kernel_page + b;
      if (now[b] == p.before[b] || (a >= p.alloc.lo && a < p.alloc.pad_hi)) continue;
      std::string msg = "kernel wrote to GM through a raw pointer " + std::to_string(a - p.alloc.hi) +
                        " bytes past the end of buffer " + quoted(p.alloc.name) + " (" +
                        std::to_string(p.alloc.hi - p.alloc.lo) + " bytes, " +
                        std::to_string(p.alloc.pad_hi - p.alloc.lo) + " with the runtime's padding)";
      abandon_raw_step(step);
      return msg;
    }
  }
  uintptr_t written_lo = UINTPTR_MAX, written_hi = 0;
  const char* padding_of = nullptr;  // a buffer whose padding was written
  aoc::CoreState& cs = aoc::core();
  for (int i = 0; i < step.open; ++i) {
    const RawStep::Page& p = step.pages[i];
    const auto* now = static_cast<const std::byte*>(as_ptr(p.kernel_page));
    if (std::memcmp(now, p.before, kRawPageBytes) != 0) {
      for (size_t b = 0; b < kRawPageBytes; ++b) {
        if (now[b] == p.before[b]) continue;
        const uintptr_t real = p.kernel_page + b + p.alloc.delta;
        *static_cast<std::byte*>(as_ptr(real)) = now[b];
        written_lo = std::min(written_lo, real);
        written_hi = std::max(written_hi, real + 1);
        if (p.kernel_page + b >= p.alloc.hi) padding_of = p.alloc.name;
      }
    }
    close_page(p);
  }
  if (padding_of != nullptr)
    cs.warn("a raw GM pointer write touches the padding of GM buffer " + quoted(padding_of) +
            ": tolerated on the device, but those bytes are not part of the tensor");
  // One scalar GM access, traced at the real addresses as GlobalTensor::GetValue / SetValue are.
  const uintptr_t first_real = step.first_address + step.pages[0].alloc.delta;
  const bool wrote = written_lo < written_hi;
  const aoc::Range range{aoc::Space::GM, wrote ? written_lo : first_real, wrote ? written_hi : first_real + 1};
  const bool write = wrote || step.write;
  cs.trace.scalar_access(write ? aoc::kSetValueOp : aoc::kGetValueOp, aoc::DType::None, range, write,
                         std::source_location{});
  step.open = 0;
  return {};
}

}  // namespace aoc::runtime
