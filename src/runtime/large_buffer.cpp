#include "runtime/large_buffer.h"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include <cstdint>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

namespace aoc::runtime {

namespace {
constexpr uintptr_t kHugePage = uintptr_t{2} << 20;
// A GM buffer's size with its padding: whole 512 B units and one more beyond them.
size_t padded_bytes(size_t n) { return (n + 511) / 512 * 512 + 512; }
}  // namespace

void advise_huge_pages(void* p, size_t bytes) {
  if (p == nullptr || bytes < 4 * kHugePage) return;
  const uintptr_t lo = (reinterpret_cast<uintptr_t>(p) + kHugePage - 1) & ~(kHugePage - 1);
  const uintptr_t hi = (reinterpret_cast<uintptr_t>(p) + bytes) & ~(kHugePage - 1);
  // Advice only: where transparent huge pages are off the call fails and 4 KiB pages serve.
  if (hi > lo) (void)madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE);
}

void GmBuffer::Free::operator()(unsigned char* p) const {
  if (mapped != 0) ::munmap(p, mapped);
  else std::free(p);
}

GmBuffer::GmBuffer(int fd, uint64_t offset, size_t n) : bytes(n) {
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || st.st_size < 0 || static_cast<uint64_t>(st.st_size) < offset ||
      static_cast<uint64_t>(st.st_size) - offset < n)
    throw std::runtime_error("the file of a GM buffer is shorter than the buffer");
  const size_t rounded = padded_bytes(n);
  const size_t total = (rounded + page - 1) / page * page;
  // Zero pages first (the padding), then the file's whole pages over them.
  void* base = ::mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) throw std::bad_alloc();
  mem = std::unique_ptr<unsigned char, Free>(static_cast<unsigned char*>(base), Free{total});
  const size_t whole = offset % page == 0 ? n / page * page : 0;  // else all of it is read
  if (whole > 0 && ::mmap(base, whole, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, fd, static_cast<off_t>(offset)) ==
                       MAP_FAILED)
    throw std::bad_alloc();
  for (size_t done = whole; done < n;) {
    const ssize_t got = ::pread(fd, mem.get() + done, n - done, static_cast<off_t>(offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw std::runtime_error(std::string("cannot read the file of a GM buffer: ") + std::strerror(errno));
    if (got == 0) throw std::runtime_error("the file of a GM buffer shrank while it was read");
    done += static_cast<size_t>(got);
  }
}

GmBuffer::GmBuffer(const void* init, size_t n, unsigned char fill) : bytes(n) {
  const size_t rounded = padded_bytes(n);
  mem.reset(static_cast<unsigned char*>(std::aligned_alloc(512, rounded)));
  if (!mem) throw std::bad_alloc();
  advise_huge_pages(mem.get(), rounded);
  const size_t copied = init != nullptr ? n : 0;
  if (copied > 0) std::memcpy(mem.get(), init, copied);
  std::memset(mem.get() + copied, fill, rounded - copied);
}

}  // namespace aoc::runtime
