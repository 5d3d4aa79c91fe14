// TPipe: the per-kernel allocator of local memory for queues and scratch buffers,
// and the owner of explicitly allocated event ids. Buffers are placed one after
// another in the memory of their position; exceeding a memory or the framework's
// buffer count is an error naming every earlier allocation, because that is what a
// kernel author needs to see to fix the tiling.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <source_location>
#include <sstream>
#include <string>
#include <vector>

#include "aoc/core_state.h"
#include "aoc/error.h"
#include "aoc/mem_queue.h"
#include "aoc/sync.h"

namespace AscendC {

class TPipe {
 public:
  TPipe() { aoc::core().pipe = this; }
  ~TPipe() {
    life_->alive = false;
    if (aoc::core().pipe == this) aoc::core().pipe = nullptr;
  }
  TPipe(const TPipe&) = delete;
  TPipe& operator=(const TPipe&) = delete;

  template <TPosition src, TPosition dst, int32_t depth, auto mask>
  bool InitBuffer(TQueBind<src, dst, depth, mask>& que, uint8_t num, uint32_t len,
                  std::source_location loc = std::source_location::current()) {
    aoc::check(num >= 1, "InitBuffer", loc, "buffer count must be at least 1 (got 0)");
    bind(que, num, len, loc);
    return true;
  }
  template <TPosition pos>
  bool InitBuffer(TBuf<pos>& buf, uint32_t len, std::source_location loc = std::source_location::current()) {
    bind(buf, 1, len, loc);
    return true;
  }

  // Back to the initial state: every queue may be InitBuffer-ed again, from address 0.
  void Reset() {
    life_->epoch++;
    used_.fill(0);
    buffers_ = 0;
    log_.clear();
    events_.fill(0);
  }
  void Destroy() {
    Reset();
    destroyed_ = true;
  }
  void Init() {
    destroyed_ = false;
    aoc::core().pipe = this;
  }

  template <HardEvent evt>
  TEventID AllocEventID(std::source_location loc = std::source_location::current()) {
    const int32_t id = first_free(evt);
    aoc::check(id >= 0, "AllocEventID", loc, "all ", aoc::core().limits.event_ids, " event ids of HardEvent::",
               aoc::hard_event_name(evt), " are allocated (ReleaseEventID the unused ones)");
    events_[static_cast<int>(evt)] |= 1u << id;
    return static_cast<TEventID>(id);
  }
  template <HardEvent evt>
  void ReleaseEventID(TEventID id, std::source_location loc = std::source_location::current()) {
    aoc::check_event_id("ReleaseEventID", evt, id, loc);
    uint32_t& mask = events_[static_cast<int>(evt)];
    aoc::check(mask & (1u << id), "ReleaseEventID", loc, "event id ", int(id), " of HardEvent::",
               aoc::hard_event_name(evt), " was not allocated by AllocEventID");
    mask &= ~(1u << id);
  }
  // Borrows an id that AllocEventID has not handed out; it is not reserved.
  template <HardEvent evt>
  TEventID FetchEventID(std::source_location loc = std::source_location::current()) {
    return FetchEventID(evt, loc);
  }
  TEventID FetchEventID(HardEvent evt, std::source_location loc = std::source_location::current()) {
    const int32_t id = first_free(evt);
    aoc::check(id >= 0, "FetchEventID", loc, "all event ids of HardEvent::", aoc::hard_event_name(evt),
               " are allocated");
    return static_cast<TEventID>(id);
  }

  // ---- implementation interface ----
  uint32_t aoc_used_bytes(aoc::Space s) const { return used_[static_cast<int>(s)]; }
  uint32_t aoc_buffer_count() const { return buffers_; }

 private:
  struct InitRecord {
    std::string queue;
    aoc::Space space;
    uint32_t num, len, offset;
    const char* file;
    uint32_t line;
  };

  std::string earlier_calls(aoc::Space only, bool all_spaces) const {
    std::ostringstream os;
    if (log_.empty()) return " No earlier InitBuffer calls.";
    os << " Earlier InitBuffer calls:";
    for (const InitRecord& r : log_) {
      if (!all_spaces && r.space != only) continue;
      os << "\n  " << r.file << ":" << r.line << ": " << r.queue << " " << r.num << " x " << r.len << " B in "
         << aoc::space_name(r.space) << " [" << r.offset << ", " << r.offset + r.num * r.len << ")";
    }
    return os.str();
  }

  void bind(aoc::QueueCore& q, uint32_t num, uint32_t len, const std::source_location& loc) {
    aoc::check(!destroyed_, "InitBuffer", loc, "the TPipe was destroyed (call TPipe::Init first)");
    if (q.aoc_initialised()) {
      const aoc::QueueBinding& b = q.aoc_binding();
      aoc::fail("InitBuffer", loc, "called twice on the same ", q.aoc_describe(), " without TPipe::Reset (first at ",
                b.file, ":", b.line, ")");
    }
    const aoc::Space space = aoc::space_of(q.aoc_position());
    aoc::check(space != aoc::Space::GM, "InitBuffer", loc, q.aoc_describe(), " has no local memory to allocate");
    const uint32_t max_buffers = aoc::core().limits.max_pipe_buffers;
    if (buffers_ + num > max_buffers) {
      aoc::fail("InitBuffer", loc, "this call adds ", num, " buffer(s) to ", buffers_, ", more than the ", max_buffers,
                " buffers one TPipe supports.", earlier_calls(space, true));
    }
    const uint32_t aligned_len = (len + 31u) / 32u * 32u;
    const uint32_t align = aoc::alignment_of(space);
    const uint64_t offset = (uint64_t(used_[static_cast<int>(space)]) + align - 1) / align * align;
    const uint64_t end = offset + uint64_t(num) * aligned_len;
    const uint32_t capacity = aoc::memory_of(space).size();
    // The device does not check this (the assertion exists in the CPU debug build only): the
    // buffers get addresses past the end of the memory, and only an access to them faults.
    // So the overflow is remembered, and reported when a tensor of such a buffer is touched.
    std::string overflow;
    if (end > capacity) {
      std::ostringstream os;
      os << aoc::space_name(space) << " overflow: " << q.aoc_describe() << " initialised at " << loc.file_name() << ":"
         << loc.line() << " asks for " << num << " x " << aligned_len << " B, bringing the total requested to " << end
         << " B but the capacity is " << capacity << " B." << earlier_calls(space, false);
      overflow = os.str();
    }
    aoc::QueueBinding b;
    b.life = life_;
    b.epoch = life_->epoch;
    b.num = num;
    b.len = aligned_len;
    b.space = space;
    b.base = static_cast<uint32_t>(offset);
    b.first_buffer = buffers_;
    b.file = loc.file_name();
    b.line = loc.line();
    b.overflow = std::move(overflow);
    q.aoc_init(b);
    used_[static_cast<int>(space)] = static_cast<uint32_t>(end);
    buffers_ += num;
    log_.push_back(InitRecord{q.aoc_describe(), space, num, aligned_len, static_cast<uint32_t>(offset), b.file, b.line});
  }

  int32_t first_free(HardEvent evt) const {
    const uint32_t mask = events_[static_cast<int>(evt)];
    for (uint32_t id = 0; id < aoc::core().limits.event_ids && id < 32; ++id)
      if (!(mask & (1u << id))) return static_cast<int32_t>(id);
    return -1;
  }

  std::shared_ptr<aoc::PipeLife> life_ = std::make_shared<aoc::PipeLife>();
  std::array<uint32_t, 8> used_{};  // bytes used per aoc::Space
  uint32_t buffers_ = 0;
  std::vector<InitRecord> log_;
  std::array<uint32_t, static_cast<int>(HardEvent::MAX) + 1> events_{};  // AllocEventID bitmasks
  bool destroyed_ = false;
};

inline TPipe* GetTPipePtr() { return aoc::core().pipe; }

}  // namespace AscendC

// The device's headers also declare GetTPipePtr outside the namespace: kernels call it
// unqualified without `using namespace AscendC`.
using AscendC::GetTPipePtr;

namespace aoc {
// Bytes of UB the current TPipe has handed out; APIs that take scratch from the rest of
// UB (advanced APIs called without a tmp buffer) start after them.
inline uint32_t ub_bytes_in_use() {
  // InitBuffer may have placed buffers past the end (they fault only when touched).
  return core().pipe ? std::min(core().pipe->aoc_used_bytes(Space::UB), core().ub.size()) : 0;
}
}  // namespace aoc
