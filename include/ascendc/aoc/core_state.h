// Per-core state of the simulated AI core. Each logical block runs on its own
// thread, so everything a real core keeps in registers or local memory lives in a
// thread-local CoreState: block index, local memories, mask registers, the current
// TPipe, and the instruction trace.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <string>

#include "aoc/trace.h"

namespace AscendC { class TPipe; }

namespace aoc {

// Sizes of the local memories and framework limits of one core, from the SoC file.
struct CoreLimits {
  uint32_t ub_bytes = 192 * 1024;
  uint32_t l1_bytes = 512 * 1024;
  uint32_t l0a_bytes = 64 * 1024;
  uint32_t l0b_bytes = 64 * 1024;
  uint32_t l0c_bytes = 128 * 1024;
  uint32_t bt_bytes = 1024;
  uint32_t fb_bytes = 2048;
  uint32_t max_pipe_buffers = 64;  // sum of buffer counts over all InitBuffer calls of a TPipe
  uint32_t event_ids = 8;          // hardware event IDs per pipe pair
};

// One local memory of a core: real storage so that kernels read back what they wrote,
// addressed by byte offset (the "physical address" the hazard checker compares).
class LocalMemory {
 public:
  void reset(uint32_t bytes) {
    if (bytes != size_) {
      data_.reset(static_cast<std::byte*>(::operator new(bytes ? bytes : 32, std::align_val_t{64})));
      base_ = data_.get();
      size_ = bytes;
    }
    // Fresh memory holds garbage on a device; a fixed pattern keeps runs deterministic
    // and makes reads of never-written data visible (NaN for floats).
    std::memset(data_.get(), 0xFF, size_);
  }
  // A plain pointer: base() is on the path of every scalar access (aoc/instrumentation.h).
  AOC_FORCE_INLINE std::byte* base() const { return base_; }
  uint32_t size() const { return size_; }

 private:
  struct Deleter { void operator()(std::byte* p) const { ::operator delete(p, std::align_val_t{64}); } };
  std::unique_ptr<std::byte, Deleter> data_;
  std::byte* base_ = nullptr;  // data_.get()
  uint32_t size_ = 0;
};

}  // namespace aoc

// The mask register's mode is part of the kernel API (SetVectorMask<T, MaskMode::COUNTER>): it is
// AscendC's type, which the simulator's state names, not the other way round (the API-use check
// refuses the kernel's use of a type of namespace aoc).
namespace AscendC {
enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };
}  // namespace AscendC

namespace aoc {
using MaskMode = AscendC::MaskMode;

// Hardware event flags set by SetFlag and not yet consumed by WaitFlag, counted per event id
// for each (source pipe, destination pipe) pair. Lets the functional run catch a WaitFlag that
// would hang. A second SetFlag before the WaitFlag is counted, not refused (kernels borrow one id
// twice and wait twice); the timing engine matches sets to waits in order, as the hazard checker does.
// Two bits per id (up to 32 ids, up to 3 sets outstanding): the core state is thread-local, and
// kernel libraries keep it in the small static TLS block a dlopen-ed library gets.
struct FlagState {
  static constexpr int kPipes = static_cast<int>(Pipe::Count);
  static constexpr uint32_t kMaxSets = 3;
  uint64_t sets[kPipes][kPipes] = {};
  uint32_t count(Pipe src, Pipe dst, uint32_t id) const { return (word(src, dst) >> (2 * id)) & kMaxSets; }
  void set(Pipe src, Pipe dst, uint32_t id) { word(src, dst) += uint64_t(1) << (2 * id); }
  void take(Pipe src, Pipe dst, uint32_t id) { word(src, dst) -= uint64_t(1) << (2 * id); }
  // Event ids with at least one set outstanding, one bit per id.
  uint32_t pending(Pipe src, Pipe dst) const {
    uint32_t bits = 0;
    for (uint32_t id = 0; id < 32; ++id)
      if (count(src, dst, id) != 0) bits |= 1u << id;
    return bits;
  }
  void clear() { *this = FlagState{}; }

 private:
  uint64_t& word(Pipe src, Pipe dst) { return sets[static_cast<int>(src)][static_cast<int>(dst)]; }
  uint64_t word(Pipe src, Pipe dst) const { return sets[static_cast<int>(src)][static_cast<int>(dst)]; }
};

struct CoreState {
  int64_t block_idx = 0;
  int64_t block_num = 1;
  int64_t sub_block_idx = 0;
  int64_t sub_block_num = 1;
  int32_t core_type = 2;  // AscendC::AIV
  uint64_t tiling_key = 0;
  int32_t kernel_type = -1;  // KERNEL_TASK_TYPE_DEFAULT value the kernel declared, -1 if none
  CoreLimits limits;
  LocalMemory ub, l1, l0a, l0b, l0c, bt, fb;
  AscendC::TPipe* pipe = nullptr;

  // Vector control registers.
  MaskMode mask_mode = MaskMode::NORMAL;
  uint64_t mask_high = ~0ull;
  uint64_t mask_low = ~0ull;
  uint64_t pad_value = 0;         // SetPadValue for DataCopyPad dummy bytes
  bool pad_value_set = false;
  uint8_t atomic_mode = 0;        // 0 none, 1 add, 2 max, 3 min
  uint8_t atomic_dtype = 0;       // aoc::DType of the atomic accumulation
  alignas(32) uint8_t cmp_mask[256] = {};  // CmpMask register written by Compare without dst
  uint64_t reduce_max_min_count = 0;       // last ReduceMax/Min index (GetReduceMaxMinCount)
  float deq_scale = 1.0f;          // DEQSCALE register (SetDeqScale)
  int16_t deq_offset = 0;
  bool deq_signed = false;
  FlagState flags;                // explicit SetFlag/WaitFlag bookkeeping (aoc/sync.h)
  // Behaviour the device tolerates but a kernel should not rely on (an access inside a GM
  // allocation's padding, a sync the toolchain inserts ...): message -> times seen.
  std::map<std::string, uint64_t> warnings;
  void warn(std::string message) { ++warnings[std::move(message)]; }
  // What the kernel printed on this core (AscendC::printf, DumpTensor; aoc/print.h).
  std::string printed;

  Trace trace;

  // Inter-core barrier (SyncAll), provided by the launcher that runs the blocks.
  void (*barrier_fn)(void*) = nullptr;
  void* barrier_ctx = nullptr;

  void init(const CoreLimits& lim) {
    limits = lim;
    ub.reset(lim.ub_bytes);
    l1.reset(lim.l1_bytes);
    l0a.reset(lim.l0a_bytes);
    l0b.reset(lim.l0b_bytes);
    l0c.reset(lim.l0c_bytes);
    bt.reset(lim.bt_bytes);
    fb.reset(lim.fb_bytes);
    pipe = nullptr;
    mask_mode = MaskMode::NORMAL;
    mask_high = mask_low = ~0ull;
    pad_value = 0;
    pad_value_set = false;
    atomic_mode = 0;
    deq_scale = 1.0f;
    deq_offset = 0;
    deq_signed = false;
    flags.clear();
    warnings.clear();
    printed.clear();
    trace.clear();
  }
};

// The state of the calling core. Outside a launch (unit tests, host code calling
// device helpers) a default core with the 910B limits is created on first use.
// Initial-exec: kernel libraries read it on every element access, and the general-dynamic
// model would call __tls_get_addr each time. The programs that load kernels define it.
__attribute__((tls_model("initial-exec"))) inline thread_local CoreState* tls_core = nullptr;

AOC_FORCE_INLINE CoreState& core() {
  if (tls_core == nullptr) {
    thread_local CoreState fallback;
    thread_local bool initialised = false;
    if (!initialised) {
      fallback.init(CoreLimits{});
      initialised = true;
    }
    tls_core = &fallback;
  }
  return *tls_core;
}

// Global memory allocations known to the launcher (inputs, outputs, workspace,
// tiling). GlobalTensor looks its pointer up here to learn the bounds it may touch.
//
// Padding: the device runtime rounds every allocation up to a multiple of 32 bytes and adds
// 32 more (aclrtMalloc), and kernels that round each core's share up to whole 32-byte blocks
// rely on it. Bytes in [hi, pad_hi) may be touched (with a warning); beyond pad_hi is an error.
//
// Kernel-visible addresses: a launch may hand the kernel addresses in a reserved range that
// has no access rights (runtime/gm_guard.h). `delta` is what to add to such an address to
// reach the real bytes; 0 for an allocation the kernel sees at its real address.
class GmRegistry {
 public:
  struct Alloc {
    uintptr_t lo = 0, hi = 0, pad_hi = 0;
    const char* name = "";
    intptr_t delta = 0;
  };

  // Bytes an allocation of `bytes` really spans on the device.
  static constexpr size_t padded_size(size_t bytes) { return (bytes + 31) / 32 * 32 + 32; }

  static GmRegistry& instance() {
    static GmRegistry r;
    return r;
  }
  void add(const void* p, size_t bytes, const char* name = "", intptr_t delta = 0) {
    std::lock_guard<std::mutex> g(mu_);
    auto lo = reinterpret_cast<uintptr_t>(p);
    allocs_[lo] = Alloc{lo, lo + bytes, lo + padded_size(bytes), name, delta};
  }
  void remove(const void* p) {
    std::lock_guard<std::mutex> g(mu_);
    allocs_.erase(reinterpret_cast<uintptr_t>(p));
  }
  // The allocation containing address p (padding included), or an empty Alloc when p is
  // not inside any.
  Alloc find(const void* p) const {
    std::lock_guard<std::mutex> g(mu_);
    auto a = reinterpret_cast<uintptr_t>(p);
    auto it = allocs_.upper_bound(a);
    if (it == allocs_.begin()) return {};
    --it;
    if (a >= it->second.lo && a < it->second.pad_hi) return it->second;
    return {};
  }
  // The allocation starting closest below address p, wherever it ends (for messages about
  // an address past an allocation's end); empty when there is none.
  Alloc find_before(const void* p) const {
    std::lock_guard<std::mutex> g(mu_);
    auto it = allocs_.upper_bound(reinterpret_cast<uintptr_t>(p));
    if (it == allocs_.begin()) return {};
    return std::prev(it)->second;
  }

 private:
  mutable std::mutex mu_;
  std::map<uintptr_t, Alloc> allocs_;
};

}  // namespace aoc
