#include "sim/l2_cache.h"

#include <algorithm>

namespace aoc::sim {

L2Cache::L2Cache(uint64_t capacity_bytes, uint32_t line_bytes)
    : capacity_lines_(line_bytes ? capacity_bytes / line_bytes : 0), line_bytes_(std::max<uint32_t>(line_bytes, 1)) {
  lines_.reserve(size_t(std::min<uint64_t>(capacity_lines_, 1u << 20)));
}

void L2Cache::touch(std::list<Line>::iterator it) { lru_.splice(lru_.begin(), lru_, it); }

void L2Cache::insert(uint64_t tag, bool dirty, L2Outcome& out) {
  if (lines_.size() >= capacity_lines_) {
    const Line& victim = lru_.back();
    if (victim.dirty) out.writeback_bytes += line_bytes_;
    lines_.erase(victim.tag);
    lru_.pop_back();
  }
  lru_.push_front(Line{tag, dirty});
  lines_[tag] = lru_.begin();
}

void L2Cache::access(uint64_t addr, uint64_t bytes, bool write, bool allocate, L2Outcome& out) {
  if (bytes == 0) return;
  if (capacity_lines_ == 0) {
    (write ? out.hit_bytes : out.miss_bytes) += bytes;
    return;
  }
  const uint64_t first = addr / line_bytes_, last = (addr + bytes - 1) / line_bytes_;
  for (uint64_t tag = first; tag <= last; ++tag) {
    const uint64_t lo = std::max(addr, tag * line_bytes_);
    const uint64_t hi = std::min(addr + bytes, (tag + 1) * line_bytes_);
    auto it = lines_.find(tag);
    if (it != lines_.end()) {
      out.hit_bytes += hi - lo;
      if (write) it->second->dirty = true;
      touch(it->second);
    } else if (write) {
      out.hit_bytes += hi - lo;
      insert(tag, true, out);
    } else if (allocate) {
      // Only the requested bytes are charged: the cost of touching partial 512 B
      // windows is the engine's alignment penalty, which must not be counted twice.
      out.miss_bytes += hi - lo;
      insert(tag, false, out);
    } else {
      out.miss_bytes += hi - lo;
    }
  }
}

}  // namespace aoc::sim
