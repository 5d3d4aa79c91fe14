// GmAlloc / GmFree of the CPU twin: GM buffers are plain host memory, 512-byte aligned like
// the device's kernel arguments, and registered in aoc::GmRegistry with their exact size so
// GlobalTensor accesses past the requested bytes are caught (the runtime's padding, which the
// registry tolerates with a warning, is allocated too).
#include <cstdlib>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

#include "aoc/core_state.h"
#include "tikicpulib.h"

namespace {

struct GmAllocations {
  std::mutex mu;
  std::map<void*, std::string> names;  // live allocations; names outlive registry lookups
  uint64_t next_id = 0;
};

GmAllocations& allocations() {
  static GmAllocations a;
  return a;
}

}  // namespace

namespace AscendC {

void* GmAlloc(size_t size) {
  constexpr size_t kAlign = 512;
  const size_t padded = aoc::GmRegistry::padded_size(size);
  size_t rounded = (padded + kAlign - 1) / kAlign * kAlign;
  void* p = std::aligned_alloc(kAlign, rounded ? rounded : kAlign);
  if (p == nullptr) throw std::bad_alloc();
  auto& a = allocations();
  std::lock_guard<std::mutex> g(a.mu);
  auto& name = a.names[p];
  name = "GmAlloc#" + std::to_string(a.next_id++);
  aoc::GmRegistry::instance().add(p, size, name.c_str());
  return p;
}

void GmFree(void* ptr) {
  if (ptr == nullptr) return;
  auto& a = allocations();
  std::lock_guard<std::mutex> g(a.mu);
  auto it = a.names.find(ptr);
  if (it == a.names.end()) throw std::invalid_argument("GmFree: pointer was not returned by GmAlloc");
  aoc::GmRegistry::instance().remove(ptr);
  a.names.erase(it);
  std::free(ptr);
}

}  // namespace AscendC
