// TQueBind, TQue and TBuf: the typed faces of the buffer queues a TPipe initialises.
#pragma once
#include <cstdint>
#include <source_location>

#include "aoc/mem_queue_core.h"

namespace AscendC {

// Handle of one queue buffer, as the untyped DeQue returns it.
using TBufHandle = uint8_t*;

template <TPosition src, TPosition dst, int32_t depth, auto mask = 0>
class TQueBind : public aoc::QueueCore {
 public:
  TQueBind() : aoc::QueueCore(src, dst, depth, "TQueBind") {}

  template <typename T>
  LocalTensor<T> AllocTensor(std::source_location loc = std::source_location::current()) {
    const uint32_t i = alloc_buffer("AllocTensor", loc);
    return tensor_of<T>(i, 0, b_.len);
  }
  template <typename T>
  void AllocTensor(LocalTensor<T>& tensor, std::source_location loc = std::source_location::current()) {
    const uint32_t i = alloc_buffer("AllocTensor", loc);
    tensor = tensor_of<T>(i, 0, b_.len);
  }

  template <typename T>
  bool EnQue(const LocalTensor<T>& tensor, std::source_location loc = std::source_location::current()) {
    enqueue(tensor.aoc_slot(), tensor.aoc_generation(), reinterpret_cast<const std::byte*>(tensor.aoc_ptr()),
            tensor.GetLength(), aoc::queue_pipes(src, dst), "EnQue", loc);
    return true;
  }
  // Synchronises the explicitly named path instead of the queue's own.
  template <TPosition srcUserPos, TPosition dstUserPos, typename T>
  bool EnQue(const LocalTensor<T>& tensor, std::source_location loc = std::source_location::current()) {
    enqueue(tensor.aoc_slot(), tensor.aoc_generation(), reinterpret_cast<const std::byte*>(tensor.aoc_ptr()),
            tensor.GetLength(), aoc::queue_pipes(srcUserPos, dstUserPos), "EnQue", loc);
    return true;
  }

  template <typename T>
  LocalTensor<T> DeQue(std::source_location loc = std::source_location::current()) {
    const uint32_t i = dequeue(aoc::queue_pipes(src, dst), "DeQue", loc);
    return tensor_of<T>(i, bufs_[i].enq_offset, bufs_[i].enq_bytes);
  }
  template <typename T>
  void DeQue(LocalTensor<T>& tensor, std::source_location loc = std::source_location::current()) {
    const uint32_t i = dequeue(aoc::queue_pipes(src, dst), "DeQue", loc);
    tensor = tensor_of<T>(i, bufs_[i].enq_offset, bufs_[i].enq_bytes);
  }
  // Untyped form: takes the oldest tensor off the queue (the same wait as the typed forms) and
  // returns the handle of its buffer; the tensor itself stays valid for FreeTensor.
  TBufHandle DeQue(std::source_location loc = std::source_location::current()) {
    const uint32_t i = dequeue(aoc::queue_pipes(src, dst), "DeQue", loc);
    return reinterpret_cast<TBufHandle>(buffer_lo(i) + bufs_[i].enq_offset);
  }
  template <TPosition srcUserPos, TPosition dstUserPos, typename T>
  LocalTensor<T> DeQue(std::source_location loc = std::source_location::current()) {
    const uint32_t i = dequeue(aoc::queue_pipes(srcUserPos, dstUserPos), "DeQue", loc);
    return tensor_of<T>(i, bufs_[i].enq_offset, bufs_[i].enq_bytes);
  }

  template <typename T>
  void FreeTensor(const LocalTensor<T>& tensor, std::source_location loc = std::source_location::current()) {
    free_buffer(tensor.aoc_slot(), tensor.aoc_generation(), "FreeTensor", loc);
  }

  bool VacantInQue() const { return depth <= 0 || queued_count() < static_cast<uint32_t>(depth); }
  bool HasTensorInQue() const { return queued_count() > 0; }
  int32_t GetTensorCountInQue() const { return static_cast<int32_t>(queued_count()); }
  bool HasIdleBuffer() const { return aoc_initialised() && has_idle_buffer(); }
  void FreeAllEvent(std::source_location loc = std::source_location::current()) {
    free_all_events("FreeAllEvent", loc);
  }

 protected:
  TQueBind(const char* kind) : aoc::QueueCore(src, dst, depth, kind) {}
};

template <TPosition pos, int32_t depth, auto mask = 0>
class TQue : public TQueBind<pos, pos, depth, mask> {
 public:
  TQue() : TQueBind<pos, pos, depth, mask>("TQue") {}
};

// A plain scratch buffer: one block, never queued or freed.
template <TPosition pos = TPosition::LCM>
class TBuf : public aoc::QueueCore {
 public:
  TBuf() : aoc::QueueCore(pos, pos, 0, "TBuf") {}

  template <typename T>
  LocalTensor<T> Get(std::source_location loc = std::source_location::current()) {
    live_slot("TBuf::Get", loc);
    return tensor_of<T>(0, 0, b_.len);
  }
  template <typename T>
  LocalTensor<T> Get(uint32_t len, std::source_location loc = std::source_location::current()) {
    live_slot("TBuf::Get", loc);
    aoc::check(uint64_t(len) * sizeof(T) <= b_.len, "TBuf::Get", loc, "asks for ", len, " elements (",
               uint64_t(len) * sizeof(T), " B) but the TBuf has ", b_.len, " B");
    return tensor_of<T>(0, 0, len * static_cast<uint32_t>(sizeof(T)));
  }
  // `size` elements starting `bufOffset` bytes into the buffer.
  template <typename T>
  LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset,
                               std::source_location loc = std::source_location::current()) {
    live_slot("TBuf::GetWithOffset", loc);
    aoc::check(bufOffset % 32 == 0, "TBuf::GetWithOffset", loc, "offset ", bufOffset, " B is not 32-byte aligned");
    aoc::check(uint64_t(bufOffset) + uint64_t(size) * sizeof(T) <= b_.len, "TBuf::GetWithOffset", loc, "range [",
               bufOffset, ", ", uint64_t(bufOffset) + uint64_t(size) * sizeof(T), ") B exceeds the TBuf's ", b_.len,
               " B");
    return tensor_of<T>(0, bufOffset, size * static_cast<uint32_t>(sizeof(T)));
  }
  // A TBuf is a TQueBind underneath, so kernels may call the queue's tensor calls on it.
  // Its one block is never recycled: AllocTensor hands out the whole buffer and
  // FreeTensor releases nothing (tensors from Get stay valid), as on the device.
  template <typename T>
  LocalTensor<T> AllocTensor(std::source_location loc = std::source_location::current()) {
    return Get<T>(loc);
  }
  template <typename T>
  void FreeTensor(LocalTensor<T>&, std::source_location loc = std::source_location::current()) {
    require_init("TBuf::FreeTensor", loc);
  }

 private:
  void live_slot(const char* api, const std::source_location& loc) {
    require_init(api, loc);
    bufs_[0].slot.live = true;
    bufs_[0].allocated = true;
  }
};

}  // namespace AscendC
