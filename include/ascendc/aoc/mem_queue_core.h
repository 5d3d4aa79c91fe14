// The type-independent state machine behind TQue / TQueBind: a ring of buffers in
// one local memory, each allocated, enqueued, dequeued and freed in turn. Every
// misuse that would hang, deadlock or corrupt data on the device is an error here,
// and every transition that the device synchronises leaves an implicit
// SetFlag/WaitFlag record (see mem_positions.h for which pipes).
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <source_location>
#include <string>

#include "aoc/core_state.h"
#include "aoc/error.h"
#include "aoc/mem_positions.h"
#include "aoc/sync.h"
#include "aoc/tensor.h"
#include "aoc/trace.h"

namespace aoc {

// Shared between a TPipe and the queues it initialised, so that either may be
// destroyed first. A queue is usable only while its pipe is alive and has not been
// Reset since the queue's InitBuffer (same epoch).
struct PipeLife {
  bool alive = true;
  uint64_t epoch = 1;
};

// What TPipe::InitBuffer hands to a queue.
struct QueueBinding {
  std::shared_ptr<PipeLife> life;
  uint64_t epoch = 0;
  uint32_t num = 0;           // buffers
  uint32_t len = 0;           // bytes per buffer, 32 B multiple
  Space space = Space::UB;
  uint32_t base = 0;          // byte offset of buffer 0 in the local memory
  uint32_t first_buffer = 0;  // index of buffer 0 among all buffers of the pipe
  const char* file = "";
  uint32_t line = 0;
  std::string overflow;       // why buffers lie past the end of the memory (empty: they fit)
};

class QueueCore {
 public:
  static constexpr uint32_t kMaxBuffers = 64;

  QueueCore(AscendC::TPosition src, AscendC::TPosition dst, int32_t depth, const char* kind)
      : src_(src), dst_(dst), pos_(buffer_position(src, dst)), depth_(depth), kind_(kind) {}
  QueueCore(const QueueCore&) = delete;
  QueueCore& operator=(const QueueCore&) = delete;

  // ---- implementation interface for TPipe ----
  bool aoc_initialised() const { return b_.life && b_.life->alive && b_.epoch == b_.life->epoch; }
  const QueueBinding& aoc_binding() const { return b_; }
  AscendC::TPosition aoc_position() const { return pos_; }
  std::string aoc_describe() const {
    std::string s = kind_;
    s += "<";
    s += position_name(src_);
    if (src_ != dst_ && std::string(kind_) != "TQue") {
      s += ", ";
      s += position_name(dst_);
    }
    s += ">";
    return s;
  }
  void aoc_init(const QueueBinding& b) {
    b_ = b;
    for (uint32_t i = 0; i < kMaxBuffers; ++i) {
      Buffer& buf = bufs_[i];
      buf.slot.generation++;  // tensors of an earlier InitBuffer become stale
      buf.slot.live = false;
      buf.slot.owner = kind_;
      buf.slot.overflow = b_.overflow.empty() ? nullptr : b_.overflow.c_str();
      buf.allocated = buf.queued = buf.free_pending = false;
    }
    head_ = count_ = 0;
    next_alloc_ = 0;
  }

 protected:
  struct Buffer {
    BufferSlot slot;
    bool allocated = false;
    bool queued = false;
    bool free_pending = false;  // FreeTensor signalled, the next AllocTensor waits for it
    uint32_t enq_offset = 0;    // byte offset and size of the tensor that was EnQue-d
    uint32_t enq_bytes = 0;
  };

  void require_init(const char* api, const std::source_location& loc) const {
    if (aoc_initialised()) return;
    if (b_.life && !b_.life->alive) fail(api, loc, "the TPipe that initialised this ", aoc_describe(), " no longer exists");
    if (b_.life) fail(api, loc, aoc_describe(), " was reset by TPipe::Reset/Destroy and not InitBuffer-ed again");
    fail(api, loc, aoc_describe(), " is used before TPipe::InitBuffer was called on it");
  }

  uint8_t event_id(uint32_t i) const { return static_cast<uint8_t>(kImplicitEventBase + b_.first_buffer + i); }

  void implicit(RecKind kind, Pipe src, Pipe dst, uint32_t i, const char* op, const std::source_location& loc) const {
    if (src == dst) return;  // same pipe: in-order execution already orders it
    append_flag_record(kind, src, dst, event_id(i), true, op, loc);
  }

  // Index of the buffer a tensor came from, or -1 when it is not one of ours.
  int32_t index_of(const BufferSlot* s) const {
    for (uint32_t i = 0; i < b_.num; ++i)
      if (s == &bufs_[i].slot) return static_cast<int32_t>(i);
    return -1;
  }

  uint32_t alloc_buffer(const char* api, const std::source_location& loc) {
    require_init(api, loc);
    for (uint32_t k = 0; k < b_.num; ++k) {
      const uint32_t i = (next_alloc_ + k) % b_.num;
      Buffer& buf = bufs_[i];
      if (buf.allocated) continue;
      next_alloc_ = (i + 1) % b_.num;
      buf.allocated = true;
      buf.slot.live = true;
      if (buf.free_pending) {
        const QueuePipes p = queue_pipes(src_, dst_);
        implicit(RecKind::WaitFlag, p.consumer, p.producer, i, api, loc);
        buf.free_pending = false;
      }
      return i;
    }
    fail(api, loc, "all ", b_.num, " buffers of ", aoc_describe(),
         " are allocated and none was freed (FreeTensor): on the device this AllocTensor would deadlock");
  }

  void enqueue(const BufferSlot* s, uint32_t gen, const std::byte* ptr, uint32_t bytes, QueuePipes p, const char* api,
               const std::source_location& loc) {
    require_init(api, loc);
    const int32_t i = index_of(s);
    check(i >= 0, api, loc, "the tensor was not allocated from this ", aoc_describe());
    Buffer& buf = bufs_[i];
    check(buf.allocated && buf.slot.live && buf.slot.generation == gen, api, loc,
          "the tensor was already freed (FreeTensor) and cannot be enqueued");
    check(!buf.queued, api, loc, "the tensor is already in the queue (EnQue twice without DeQue)");
    check(depth_ <= 0 || count_ < static_cast<uint32_t>(depth_), api, loc, "EnQue beyond the queue depth ", depth_,
          ": ", count_, " tensor(s) are already waiting to be DeQue-d");
    buf.queued = true;
    buf.enq_offset = static_cast<uint32_t>(ptr - buffer_lo(i));
    buf.enq_bytes = bytes;
    ring_[(head_ + count_) % kMaxBuffers] = static_cast<uint8_t>(i);
    ++count_;
    implicit(RecKind::SetFlag, p.producer, p.consumer, static_cast<uint32_t>(i), api, loc);
  }

  uint32_t dequeue(QueuePipes p, const char* api, const std::source_location& loc) {
    require_init(api, loc);
    check(count_ > 0, api, loc, "DeQue on an empty ", aoc_describe(),
          ": no tensor was EnQue-d, on the device the consumer would wait forever");
    const uint32_t i = ring_[head_];
    head_ = (head_ + 1) % kMaxBuffers;
    --count_;
    bufs_[i].queued = false;
    implicit(RecKind::WaitFlag, p.producer, p.consumer, i, api, loc);
    return i;
  }

  void free_buffer(const BufferSlot* s, uint32_t gen, const char* api, const std::source_location& loc) {
    require_init(api, loc);
    const int32_t i = index_of(s);
    check(i >= 0, api, loc, "the tensor was not allocated from this ", aoc_describe());
    Buffer& buf = bufs_[i];
    if (!buf.allocated || buf.slot.generation != gen) {
      fail(api, loc, "the tensor was freed twice", buf.slot.freed_line ? " (first FreeTensor at " : "",
           buf.slot.freed_file, buf.slot.freed_line ? ":" : "",
           buf.slot.freed_line ? std::to_string(buf.slot.freed_line) : std::string(), buf.slot.freed_line ? ")" : "");
    }
    check(!buf.queued, api, loc, "the tensor is still in the queue (EnQue-d and not DeQue-d)");
    buf.allocated = false;
    buf.slot.live = false;
    buf.slot.generation++;
    buf.slot.freed_file = loc.file_name();
    buf.slot.freed_line = loc.line();
    const QueuePipes p = queue_pipes(src_, dst_);
    if (p.synced()) {
      implicit(RecKind::SetFlag, p.consumer, p.producer, static_cast<uint32_t>(i), api, loc);
      buf.free_pending = true;
    }
  }

  // Consumes the pending free events, as the device does when the queue is torn down.
  void free_all_events(const char* api, const std::source_location& loc) {
    const QueuePipes p = queue_pipes(src_, dst_);
    for (uint32_t i = 0; i < b_.num; ++i) {
      if (!bufs_[i].free_pending) continue;
      implicit(RecKind::WaitFlag, p.consumer, p.producer, i, api, loc);
      bufs_[i].free_pending = false;
    }
  }

  std::byte* buffer_lo(uint32_t i) const { return memory_of(b_.space).base() + b_.base + i * b_.len; }

  template <typename T>
  AscendC::LocalTensor<T> tensor_of(uint32_t i, uint32_t offset, uint32_t bytes) const {
    AscendC::LocalTensor<T> t;
    std::byte* lo = buffer_lo(i);
    std::byte* hi = lo + b_.len;
    std::byte* at = lo + offset;
    if (!b_.overflow.empty()) {
      // Only the part inside the memory exists; touching the rest fails with b_.overflow.
      std::byte* end = memory_of(b_.space).base() + memory_of(b_.space).size();
      lo = std::min(lo, end);
      hi = std::min(hi, end);
      at = std::min(at, end);
    }
    t.aoc_bind(pos_, reinterpret_cast<T*>(at), bytes / static_cast<uint32_t>(sizeof(T)), lo, hi, &bufs_[i].slot);
    return t;
  }

  uint32_t queued_count() const { return count_; }
  bool has_idle_buffer() const {
    for (uint32_t i = 0; i < b_.num; ++i)
      if (!bufs_[i].allocated) return true;
    return false;
  }

  AscendC::TPosition src_, dst_, pos_;
  int32_t depth_;
  const char* kind_;
  QueueBinding b_;
  std::array<Buffer, kMaxBuffers> bufs_{};
  std::array<uint8_t, kMaxBuffers> ring_{};
  uint32_t head_ = 0, count_ = 0, next_alloc_ = 0;
};

}  // namespace aoc
