// GlobalTensor and LocalTensor: typed views on global memory and on a core's local
// memories. Every access an API makes goes through aoc_check(), which validates the
// range against the underlying allocation and that the buffer has not been freed.
#pragma once
#include <cstdint>
#include <iostream>
#include <source_location>
#include <type_traits>

#include "aoc/core_state.h"
#include "aoc/error.h"
#include "aoc/half.h"
#include "aoc/instrumentation.h"
#include "aoc/macros.h"
#include "aoc/scalar_ref.h"
#include "aoc/trace.h"

namespace AscendC {

enum class TPosition : uint8_t {
  GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM, SHM = SPM, TSCM,
  C2PIPE2GM, C2PIPE2LOCAL, MAX
};
using QuePosition = TPosition;

enum class CacheMode : uint8_t { CACHE_MODE_NORMAL = 0, CACHE_MODE_DISABLE, CACHE_MODE_LAST, CACHE_MODE_PERSISTENT };

}  // namespace AscendC

namespace aoc {

template <typename T> constexpr DType dtype_of() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, half>) return DType::F16;
  else if constexpr (std::is_same_v<U, bfloat16_t>) return DType::BF16;
  else if constexpr (std::is_same_v<U, float>) return DType::F32;
  else if constexpr (std::is_same_v<U, double>) return DType::F64;
  else if constexpr (std::is_same_v<U, int8_t>) return DType::I8;
  else if constexpr (std::is_same_v<U, uint8_t>) return DType::U8;
  else if constexpr (std::is_same_v<U, int16_t>) return DType::I16;
  else if constexpr (std::is_same_v<U, uint16_t>) return DType::U16;
  else if constexpr (std::is_same_v<U, int32_t>) return DType::I32;
  else if constexpr (std::is_same_v<U, uint32_t>) return DType::U32;
  else if constexpr (std::is_same_v<U, int64_t>) return DType::I64;
  else if constexpr (std::is_same_v<U, uint64_t>) return DType::U64;
  else if constexpr (std::is_same_v<U, bool>) return DType::U8;
  else return DType::None;
}

// Which local memory a position lives in.
constexpr AOC_FORCE_INLINE Space space_of(AscendC::TPosition pos) {
  using P = AscendC::TPosition;
  switch (pos) {
    case P::A1: case P::B1: case P::C1: case P::TSCM: return Space::L1;
    case P::A2: return Space::L0A;
    case P::B2: return Space::L0B;
    case P::CO1: return Space::L0C;
    case P::C2: return Space::BT;
    case P::C2PIPE2GM: return Space::FB;
    case P::GM: case P::CO2: return Space::GM;
    default: return Space::UB;
  }
}

AOC_FORCE_INLINE LocalMemory& memory_of(Space s) {
  CoreState& c = core();
  switch (s) {
    case Space::L1: return c.l1;
    case Space::L0A: return c.l0a;
    case Space::L0B: return c.l0b;
    case Space::L0C: return c.l0c;
    case Space::BT: return c.bt;
    case Space::FB: return c.fb;
    default: return c.ub;
  }
}

// A block of local memory handed out by a TPipe. Tensors remember the generation they
// were allocated in; FreeTensor bumps it, so a stale tensor is detected on its next use.
struct BufferSlot {
  uint32_t generation = 0;
  bool live = true;             // false between FreeTensor and the next AllocTensor
  const char* owner = "buffer"; // "TQue", "TBuf", ...
  const char* freed_file = "";
  uint32_t freed_line = 0;
  const char* overflow = nullptr;  // set when InitBuffer placed the buffer past the memory's end
};

}  // namespace aoc

namespace AscendC {

template <typename T> class LocalTensor {
 public:
  using PrimType = T;
  LocalTensor() = default;
  // Static-tensor style: a tensor placed by hand at byte address `addr` of the memory of `pos`.
  LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize,
              std::source_location loc = std::source_location::current()) {
    aoc::LocalMemory& m = aoc::memory_of(aoc::space_of(pos));
    aoc::check(uint64_t(addr) + uint64_t(tileSize) * sizeof(T) <= m.size(), "LocalTensor", loc, "tensor [", addr,
               ", ", uint64_t(addr) + uint64_t(tileSize) * sizeof(T), ") lies outside ", aoc::space_name(aoc::space_of(pos)),
               " (", m.size(), " bytes)");
    aoc::check(addr % 32 == 0, "LocalTensor", loc, "address ", addr, " is not 32-byte aligned");
    aoc_bind(pos, reinterpret_cast<T*>(m.base() + addr), tileSize, m.base() + addr, m.base() + addr + tileSize * sizeof(T),
             nullptr);
  }

  // Tensor starting `offset` elements further; shares storage.
  LocalTensor operator[](uint32_t offset) const {
    LocalTensor t = *this;
    t.ptr_ += offset;
    t.size_ = offset <= size_ ? size_ - offset : 0;
    return t;
  }

  AOC_API_UNCOUNTED T GetValue(uint32_t i, std::source_location loc = std::source_location::current()) const {
    aoc_check(i, 1, "LocalTensor::GetValue", loc);
    aoc_scalar_trace(aoc::kGetValueOp, i, false, loc);
    return ptr_[i];
  }
  AOC_API_UNCOUNTED void SetValue(uint32_t i, T v, std::source_location loc = std::source_location::current()) const {
    aoc_check(i, 1, "LocalTensor::SetValue", loc);
    aoc_scalar_trace(aoc::kSetValueOp, i, true, loc);
    ptr_[i] = v;
  }
  // Element i, read as a GetValue and assigned as a SetValue (aoc/scalar_ref.h).
  AOC_FORCE_INLINE aoc::ScalarRef<LocalTensor, uint32_t> operator()(
      uint32_t i, std::source_location loc = std::source_location::current()) const {
    return {*this, i, loc};
  }

  uint32_t GetSize() const { return size_; }
  uint32_t GetLength() const { return size_ * sizeof(T); }
  void SetSize(uint32_t n) { size_ = n; }
  void SetBufferLen(uint32_t bytes) { size_ = bytes / sizeof(T); }
  TPosition GetPosition() const { return pos_; }
  void SetUserTag(int32_t tag) { tag_ = tag; }
  int32_t GetUserTag() const { return tag_; }
  // Physical address: the byte offset inside the core's local memory, as on the device.
  uint64_t GetPhyAddr() const { return aoc_offset(); }
  uint64_t GetPhyAddr(uint32_t off) const { return aoc_offset() + uint64_t(off) * sizeof(T); }
  void SetAddr(uint64_t byteOffset) { ptr_ = reinterpret_cast<T*>(aoc_mem().base() + byteOffset); }

  template <typename U> LocalTensor<U> ReinterpretCast() const {
    LocalTensor<U> t;
    t.aoc_bind(pos_, reinterpret_cast<U*>(ptr_), static_cast<uint32_t>(uint64_t(size_) * sizeof(T) / sizeof(U)),
               buf_lo_, buf_hi_, slot_, gen_);
    t.SetUserTag(tag_);
    return t;
  }

  void Print(uint32_t n = 0) const {
    uint32_t count = n ? n : size_;
    for (uint32_t i = 0; i < count; ++i) std::cout << static_cast<double>(static_cast<float>(ptr_[i])) << (i + 1 < count ? " " : "\n");
  }

  // ---- implementation interface (used by the API implementation, not by kernels) ----
  // gen < 0: take the slot's current generation (a fresh allocation).
  void aoc_bind(TPosition pos, T* ptr, uint32_t size, std::byte* lo, std::byte* hi, const aoc::BufferSlot* slot,
                int64_t gen = -1) {
    pos_ = pos;
    ptr_ = ptr;
    size_ = size;
    buf_lo_ = lo;
    buf_hi_ = hi;
    slot_ = slot;
    gen_ = gen >= 0 ? static_cast<uint32_t>(gen) : (slot ? slot->generation : 0);
  }
  AOC_FORCE_INLINE T* aoc_ptr() const { return ptr_; }
  AOC_FORCE_INLINE aoc::Space aoc_space() const { return aoc::space_of(pos_); }
  AOC_FORCE_INLINE aoc::LocalMemory& aoc_mem() const { return aoc::memory_of(aoc_space()); }
  AOC_FORCE_INLINE uint64_t aoc_offset() const {
    return static_cast<uint64_t>(reinterpret_cast<const std::byte*>(ptr_) - aoc_mem().base());
  }
  std::byte* aoc_buf_lo() const { return buf_lo_; }
  std::byte* aoc_buf_hi() const { return buf_hi_; }
  const aoc::BufferSlot* aoc_slot() const { return slot_; }
  uint32_t aoc_generation() const { return gen_; }
  // Elements available from this tensor's start to the end of its buffer.
  uint64_t aoc_capacity() const {
    return buf_hi_ > reinterpret_cast<std::byte*>(ptr_)
               ? static_cast<uint64_t>(buf_hi_ - reinterpret_cast<std::byte*>(ptr_)) / sizeof(T) : 0;
  }
  // Validates that elements [first, first + n) of this tensor may be touched.
  // Bounds are those of the buffer the tensor came from, not GetSize(): kernels
  // legally address past a sub-tensor's logical size inside its buffer.
  AOC_FORCE_INLINE void aoc_check(uint64_t first, uint64_t n, const char* api, const std::source_location& loc) const {
    aoc::check(ptr_ != nullptr, api, loc, "uses a LocalTensor that was never allocated (AllocTensor / Get / DeQue)");
    if (slot_ != nullptr && !(slot_->live && slot_->generation == gen_)) aoc_fail_freed(api, loc);
    if (n == 0) return;
    const std::byte* lo = reinterpret_cast<const std::byte*>(ptr_ + first);
    const std::byte* hi = reinterpret_cast<const std::byte*>(ptr_ + first + n);
    if (lo < buf_lo_ || hi > buf_hi_) {
      if (slot_ != nullptr && slot_->overflow != nullptr)
        aoc::fail(api, loc, "touches a buffer placed past the end of local memory (the device faults here). ",
                  slot_->overflow);
      aoc::fail(api, loc, "accesses ", aoc::space_name(aoc_space()), " bytes [", lo - aoc_mem().base(), ", ",
                hi - aoc_mem().base(), ") outside its buffer [", buf_lo_ - aoc_mem().base(), ", ",
                buf_hi_ - aoc_mem().base(), ") (elements ", first, "..", first + n - 1, " of a tensor with ",
                aoc_capacity(), " elements left in its buffer)");
    }
  }
  AOC_FORCE_INLINE aoc::Range aoc_range(uint64_t first, uint64_t n) const {
    uint64_t off = aoc_offset() + first * sizeof(T);
    return aoc::Range{aoc_space(), off, off + n * sizeof(T)};
  }

 private:
  AOC_FORCE_INLINE void aoc_scalar_trace(const char* op, uint32_t i, bool write, const std::source_location& loc) const {
    aoc::core().trace.scalar_access(op, aoc::dtype_of<T>(), aoc_range(i, 1), write, loc);
  }

  [[noreturn]] void aoc_fail_freed(const char* api, const std::source_location& loc) const {
    aoc::fail(api, loc, "uses a tensor of a ", slot_->owner, " after FreeTensor",
              slot_->freed_line ? " (freed at " : "", slot_->freed_file, slot_->freed_line ? ":" : "",
              slot_->freed_line ? std::to_string(slot_->freed_line) : std::string(), slot_->freed_line ? ")" : "");
  }

  TPosition pos_ = TPosition::VECCALC;
  T* ptr_ = nullptr;
  uint32_t size_ = 0;
  std::byte* buf_lo_ = nullptr;
  std::byte* buf_hi_ = nullptr;
  const aoc::BufferSlot* slot_ = nullptr;
  uint32_t gen_ = 0;
  int32_t tag_ = 0;
};

template <typename T> class GlobalTensor {
 public:
  using PrimType = T;
  GlobalTensor() = default;

  void SetGlobalBuffer(__gm__ T* buffer, uint64_t bufferSize) {
    ptr_ = buffer;
    size_ = bufferSize;
    alloc_ = aoc::GmRegistry::instance().find(buffer);
  }
  void SetGlobalBuffer(__gm__ T* buffer) { SetGlobalBuffer(buffer, 0); }

  GlobalTensor operator[](uint64_t offset) const {
    GlobalTensor t = *this;
    t.ptr_ += offset;
    t.size_ = offset <= size_ ? size_ - offset : 0;
    return t;
  }

  AOC_API_UNCOUNTED T GetValue(uint64_t i, std::source_location loc = std::source_location::current()) const {
    aoc_check(i, 1, "GlobalTensor::GetValue", loc);
    aoc_scalar_trace("GmGetValue", i, false, loc);
    return aoc_ptr()[i];
  }
  AOC_API_UNCOUNTED void SetValue(uint64_t i, T v, std::source_location loc = std::source_location::current()) const {
    aoc_check(i, 1, "GlobalTensor::SetValue", loc);
    aoc_scalar_trace("GmSetValue", i, true, loc);
    aoc_ptr()[i] = v;
  }
  // Element i, read as a GetValue and assigned as a SetValue (aoc/scalar_ref.h).
  AOC_FORCE_INLINE aoc::ScalarRef<GlobalTensor, uint64_t> operator()(
      uint64_t i, std::source_location loc = std::source_location::current()) const {
    return {*this, i, loc};
  }

  uint64_t GetSize() const { return size_; }
  __gm__ T* GetPhyAddr() const { return ptr_; }
  __gm__ T* GetPhyAddr(uint64_t off) const { return ptr_ + off; }
  void SetL2CacheHint(AscendC::CacheMode mode) { cache_mode_ = mode; }
  AscendC::CacheMode GetL2CacheHint() const { return cache_mode_; }

  template <typename U> GlobalTensor<U> ReinterpretCast() const {
    GlobalTensor<U> t;
    t.SetGlobalBuffer(reinterpret_cast<__gm__ U*>(ptr_), size_ * sizeof(T) / sizeof(U));
    t.SetL2CacheHint(cache_mode_);
    return t;
  }

  // ---- implementation interface ----
  // The real bytes behind the kernel-visible address (see GmRegistry::Alloc::delta).
  AOC_FORCE_INLINE T* aoc_ptr() const {
    return reinterpret_cast<T*>(reinterpret_cast<uintptr_t>(ptr_) + alloc_.delta);
  }
  // Addresses in the trace are real ones, whatever address the kernel was given.
  AOC_FORCE_INLINE uint64_t aoc_addr(uint64_t first = 0) const { return reinterpret_cast<uint64_t>(aoc_ptr() + first); }
  // Validates that elements [first, first + n) lie inside the GM allocation the
  // tensor points into (the launcher registers every buffer it passes to a kernel).
  // The allocation's padding is accepted with a warning, as the device tolerates it.
  AOC_FORCE_INLINE void aoc_check(uint64_t first, uint64_t n, const char* api, const std::source_location& loc) const {
    if (n == 0) return;
    aoc::check(ptr_ != nullptr, api, loc, "uses a GlobalTensor whose buffer is null (SetGlobalBuffer not called?)");
    if (alloc_.hi == 0) {
      // Pointer was not inside a known allocation at SetGlobalBuffer time; look again
      // (the tensor may have been set before registration, or offset into one).
      alloc_ = aoc::GmRegistry::instance().find(ptr_);
      aoc::check(alloc_.hi != 0, api, loc, "GM address ", static_cast<const void*>(ptr_),
                 " is not inside any buffer passed to the kernel");
    }
    uint64_t lo = reinterpret_cast<uint64_t>(ptr_ + first);
    uint64_t hi = reinterpret_cast<uint64_t>(ptr_ + first + n);
    if (lo < alloc_.lo || hi > alloc_.hi) aoc_outside(lo, hi, api, loc);
  }
  AOC_FORCE_INLINE aoc::Range aoc_range(uint64_t first, uint64_t n) const {
    return aoc::Range{aoc::Space::GM, aoc_addr(first), aoc_addr(first + n)};
  }

 private:
  AOC_FORCE_INLINE void aoc_scalar_trace(const char* op, uint64_t i, bool write, const std::source_location& loc) const {
    aoc::core().trace.scalar_access(op, aoc::dtype_of<T>(), aoc_range(i, 1), write, loc);
  }

  // Cold path of aoc_check: inside the padding is a warning, anything else an error.
  [[gnu::noinline, gnu::cold]] void aoc_outside(uint64_t lo, uint64_t hi, const char* api,
                                               const std::source_location& loc) const {
    const char* q = alloc_.name[0] ? "'" : "";
    const uint64_t bytes = alloc_.hi - alloc_.lo;
    if (lo >= alloc_.lo && hi <= alloc_.pad_hi) {
      aoc::core().warn(std::string(api) + " at " + aoc::where(loc) + " touches the padding of GM buffer " + q +
                       alloc_.name + q + " (" + std::to_string(bytes) + " bytes, padded to " +
                       std::to_string(alloc_.pad_hi - alloc_.lo) +
                       " by the runtime): tolerated on the device, but those bytes are not part of the tensor");
      return;
    }
    aoc::fail(api, loc, "accesses GM bytes [", int64_t(lo - alloc_.lo), ", ", int64_t(hi - alloc_.lo), ") of ",
              alloc_.name[0] ? "buffer '" : "a buffer", alloc_.name, q, " which has ", bytes,
              " bytes (", alloc_.pad_hi - alloc_.lo, " with the runtime's padding): out of bounds");
  }

  __gm__ T* ptr_ = nullptr;
  uint64_t size_ = 0;
  mutable aoc::GmRegistry::Alloc alloc_;
  AscendC::CacheMode cache_mode_ = AscendC::CacheMode::CACHE_MODE_NORMAL;
};

}  // namespace AscendC
