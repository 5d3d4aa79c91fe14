// Host buffers of up to gigabytes: a 67 M-element case holds its inputs, GM copies, outputs and
// the goldens' double arrays, about 3 GB. First-touch page faults dominated such a run (one per
// 4 KiB page, and each costs microseconds on a virtual machine), so large buffers ask for
// transparent huge pages before their first write.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>

namespace aoc::runtime {

// Asks the kernel to back the 2 MiB-aligned interior of [p, p + bytes) with transparent huge
// pages. Only worth it, and only done, for buffers of several MiB; a no-op where the kernel does
// not offer them. Call it between allocation and the first write.
void advise_huge_pages(void* p, size_t bytes);

// Reserves room for n elements of a std::vector and advises huge pages for it; fill it after.
template <typename V> void reserve_large(V& v, size_t n) {
  v.reserve(n);
  advise_huge_pages(v.data(), n * sizeof(typename V::value_type));
}

// GM memory for one kernel argument: 512 B aligned like device allocations, `bytes` long
// starting with a copy of `init` (when given), the rest up to the padded size filled with
// `fill`. Throws std::bad_alloc when the memory is not there.
struct GmBuffer {
  struct Free {
    size_t mapped;  // bytes of a mapping to unmap; 0: memory from aligned_alloc (value-initialised)
    void operator()(unsigned char* p) const;
  };
  std::unique_ptr<unsigned char, Free> mem;
  size_t bytes = 0;
  GmBuffer(const void* init, size_t n, unsigned char fill);
  // The same layout with the `n` bytes at `offset` of the open file `fd` as the initial bytes
  // and zeros as the padding. The whole pages among them are a private (copy-on-write)
  // mapping of the file, so nothing is copied until the kernel writes there and nothing it
  // writes reaches the file; the rest is read (all of it when `offset` is not a multiple of
  // the page size).
  // Throws std::bad_alloc when the memory is not there, std::runtime_error when the file is
  // shorter than offset + n or cannot be read.
  GmBuffer(int fd, uint64_t offset, size_t n);
};

}  // namespace aoc::runtime
