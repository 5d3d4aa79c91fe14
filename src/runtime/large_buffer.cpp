#include "runtime/large_buffer.h"

#include <sys/mman.h>

#include <cstdint>
#include <cstring>
#include <new>

namespace aoc::runtime {

namespace {
constexpr uintptr_t kHugePage = uintptr_t{2} << 20;
}  // namespace

void advise_huge_pages(void* p, size_t bytes) {
  if (p == nullptr || bytes < 4 * kHugePage) return;
  const uintptr_t lo = (reinterpret_cast<uintptr_t>(p) + kHugePage - 1) & ~(kHugePage - 1);
  const uintptr_t hi = (reinterpret_cast<uintptr_t>(p) + bytes) & ~(kHugePage - 1);
  // Advice only: where transparent huge pages are off the call fails and 4 KiB pages serve.
  if (hi > lo) (void)madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE);
}

GmBuffer::GmBuffer(const void* init, size_t n, unsigned char fill) : bytes(n) {
  const size_t rounded = (n + 511) / 512 * 512 + 512;
  mem.reset(static_cast<unsigned char*>(std::aligned_alloc(512, rounded)));
  if (!mem) throw std::bad_alloc();
  advise_huge_pages(mem.get(), rounded);
  const size_t copied = init != nullptr ? n : 0;
  if (copied > 0) std::memcpy(mem.get(), init, copied);
  std::memset(mem.get() + copied, fill, rounded - copied);
}

}  // namespace aoc::runtime
