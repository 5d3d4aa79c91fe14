#include "sim/l2_cache.h"

#include <algorithm>
#include <bit>

namespace aoc::sim {

namespace {
constexpr int kInitialBucketBits = 10;  // doubled while more lines are resident than buckets
}

L2Cache::L2Cache(uint64_t capacity_bytes, uint32_t line_bytes)
    : capacity_lines_(line_bytes ? capacity_bytes / line_bytes : 0), line_bytes_(std::max<uint32_t>(line_bytes, 1)) {
  if (capacity_lines_ == 0) return;
  bucket_bits_ = kInitialBucketBits;
  buckets_.assign(size_t{1} << bucket_bits_, kNone);
}

size_t L2Cache::bucket_of(uint64_t tag) const {
  // A transfer touches consecutive lines: they keep consecutive buckets (the table is read
  // in order, as the lines are), while regions a multiple of the table size apart are moved
  // to different places by a multiplicative hash of the high bits.
  const uint64_t high = tag >> bucket_bits_;
  return size_t((tag + high * 0x9E3779B97F4A7C15ull) & ((uint64_t{1} << bucket_bits_) - 1));
}

uint32_t L2Cache::find(uint64_t tag) const {
  for (uint32_t i = buckets_[bucket_of(tag)]; i != kNone; i = lines_[i].chain)
    if (lines_[i].tag == tag) return i;
  return kNone;
}

void L2Cache::chain_in(uint32_t i) {
  uint32_t& head = buckets_[bucket_of(lines_[i].tag)];
  lines_[i].chain = head;
  head = i;
}

void L2Cache::chain_out(uint32_t i) {
  uint32_t* link = &buckets_[bucket_of(lines_[i].tag)];
  while (*link != i) link = &lines_[*link].chain;
  *link = lines_[i].chain;
}

void L2Cache::grow_buckets() {
  ++bucket_bits_;
  buckets_.assign(size_t{1} << bucket_bits_, kNone);
  for (uint32_t i = newest_; i != kNone; i = lines_[i].older) chain_in(i);
}

void L2Cache::unlink(uint32_t i) {
  Line& l = lines_[i];
  (l.newer != kNone ? lines_[l.newer].older : newest_) = l.older;
  (l.older != kNone ? lines_[l.older].newer : oldest_) = l.newer;
}

void L2Cache::push_front(uint32_t i) {
  Line& l = lines_[i];
  l.newer = kNone;
  l.older = newest_;
  (newest_ != kNone ? lines_[newest_].newer : oldest_) = i;
  newest_ = i;
}

void L2Cache::touch(uint32_t i) {
  if (i == newest_) return;
  unlink(i);
  push_front(i);
}

void L2Cache::insert(uint64_t tag, bool dirty, L2Outcome& out) {
  uint32_t i;
  if (resident_ >= capacity_lines_) {
    // Full: the least recently used line leaves and its slot takes the new line.
    i = oldest_;
    if (lines_[i].dirty) out.writeback_bytes += line_bytes_;
    chain_out(i);
    unlink(i);
    --resident_;
  } else {
    i = uint32_t(lines_.size());
    lines_.push_back({});
  }
  lines_[i].tag = tag;
  lines_[i].dirty = dirty;
  push_front(i);
  ++resident_;
  if (resident_ > buckets_.size()) grow_buckets();
  else chain_in(i);
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
    const uint32_t i = find(tag);
    if (i != kNone) {
      out.hit_bytes += hi - lo;
      if (write) lines_[i].dirty = true;
      touch(i);
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
