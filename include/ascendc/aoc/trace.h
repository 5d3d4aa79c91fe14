// The instruction trace of one core, recorded during the functional run of a kernel
// and consumed by the timing engine and the hazard checker (src/sim). Every API call
// that the device would execute on a pipe appends one record.
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <source_location>
#include <utility>
#include <vector>

#include "aoc/instrumentation.h"

namespace aoc {

// Hardware pipes of an AI core. S = scalar unit (issues everything, does scalar work).
enum class Pipe : uint8_t { S = 0, V, M, MTE1, MTE2, MTE3, FIX, ALL, Count };

// Address spaces a record can touch. GM addresses are host pointer values;
// local-memory addresses are byte offsets inside that memory of the core.
enum class Space : uint8_t { GM = 0, UB, L1, L0A, L0B, L0C, BT, FB };

inline const char* pipe_name(Pipe p) {
  static const char* const names[] = {"S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX", "ALL"};
  return p < Pipe::Count ? names[static_cast<int>(p)] : "?";
}

inline const char* space_name(Space s) {
  switch (s) {
    case Space::GM: return "GM";
    case Space::UB: return "UB";
    case Space::L1: return "L1";
    case Space::L0A: return "L0A";
    case Space::L0B: return "L0B";
    case Space::L0C: return "L0C";
    case Space::BT: return "BT";
    case Space::FB: return "FB";
  }
  return "?";
}

// Element types, used to pick instruction costs.
enum class DType : uint8_t { None = 0, F16, BF16, F32, F64, I8, U8, I16, U16, I32, U32, I64, U64, B1 };

enum class RecKind : uint8_t {
  Compute,   // vector / cube instruction on pipe V or M
  Copy,      // data movement on MTE1/MTE2/MTE3/FIX (or V for UB->UB)
  Scalar,    // scalar work on S: `count` = executed basic blocks / scalar ops
  SetFlag,   // pipe -> peer event `event_id`
  WaitFlag,  // peer waits for pipe's event `event_id` (pipe = source, peer = waiting pipe)
  Barrier,   // PipeBarrier<pipe>; pipe == ALL blocks every pipe
  SyncAll,   // inter-core barrier
};

// Implicit SetFlag/WaitFlag records of the TQue framework (implicit == true) carry
// event_id = kImplicitEventBase + the index of the queue buffer inside its TPipe
// (0..63, in InitBuffer order), so each buffer's events pair up on their own and
// never collide with the ids 0..7 a kernel uses explicitly.
constexpr uint8_t kImplicitEventBase = 16;

struct Range {
  Space space = Space::UB;
  uint64_t lo = 0;  // [lo, hi) in bytes
  uint64_t hi = 0;
};

// TraceRecord::cache_mode of a copy whose GM side bypasses L2 (AscendC::CacheMode::CACHE_MODE_DISABLE).
constexpr uint8_t kCacheModeDisable = 1;

struct TraceRecord {
  RecKind kind = RecKind::Compute;
  Pipe pipe = Pipe::S;
  Pipe peer = Pipe::S;       // SetFlag/WaitFlag: the other pipe of the event
  uint8_t event_id = 0;       // user events: 0..7; implicit queue events: kImplicitEventBase + buffer index
  DType dtype = DType::None;      // element type computed on (source type for Cast)
  DType dst_dtype = DType::None;  // result type when it differs (Cast, Compare)
  bool implicit = false;          // sync inserted by the framework (TQue) or compiler, not written by the user
  const char* op = "";            // API name, a string literal: "Add", "DataCopy", "EnQue" ...
  uint64_t elems = 0;             // elements processed (Compute) / scalar ops or accesses (Scalar)
  uint64_t kernel_blocks = 0;     // Scalar: executed basic blocks of kernel code folded into this record
  uint32_t repeats = 0;           // vector repeats (level-0 form) or derived from elems
  uint64_t bytes = 0;             // bytes moved (Copy)
  uint32_t bursts = 0;            // Copy: number of contiguous blocks
  uint32_t burst_bytes = 0;       // Copy: bytes per block
  uint64_t src_gap = 0;           // Copy: bytes skipped between source blocks
  uint64_t dst_gap = 0;           // Copy: bytes skipped between destination blocks
  uint8_t cache_mode = 0;         // Copy: L2 cache mode of the GM side (AscendC::CacheMode; 1 = bypass L2)
  uint8_t nreads = 0;
  Range reads[3];
  bool has_write = false;
  Range write;
  const char* file = "";
  uint32_t line = 0;
};

// Plain C++ in a kernel costs scalar cycles. Kernel translation units are compiled with
// coverage instrumentation (src/runtime/coverage.cpp) that counts the basic blocks of the
// kernel's own code (not of this API) executed on the calling thread into this counter.
// Before each record, the blocks counted since the previous record are added to a Scalar
// record (`kernel_blocks`); the launcher flushes the rest when the block ends.
inline thread_local uint64_t tls_kernel_blocks = 0;
// Basic blocks of API code that still carry coverage callbacks (discarded, never simulated
// time). Only a cost of running the simulation: per-element API code is compiled without them
// (aoc/instrumentation.h), so this stays a small number per API call.
inline thread_local uint64_t tls_api_blocks = 0;
inline constexpr const char* kKernelScalarOp = "KernelScalar";
// A run of scalar GetValue/SetValue accesses of both kinds folded into one record.
inline constexpr const char* kScalarAccessOp = "ScalarAccess";

// Scalar work that may be folded into one record: plain kernel code and scalar accesses to
// tensors. Consecutive such records execute back to back on the scalar unit with nothing in
// between, so one record with the summed cost and the union of (contiguous) address ranges
// times and checks exactly like the sequence. Without folding, a scalar loop over a tensor
// would cost one record per element (hundreds of millions on a large tensor).
inline constexpr const char* kGetValueOp = "GetValue";
inline constexpr const char* kSetValueOp = "SetValue";
AOC_FORCE_INLINE bool same_op(const char* a, const char* b) { return a == b || __builtin_strcmp(a, b) == 0; }
AOC_FORCE_INLINE bool foldable_scalar_op(const char* op) {
  // Pointers first: the names come from these constants, and this runs once per scalar access.
  if (op == kKernelScalarOp || op == kScalarAccessOp || op == kGetValueOp || op == kSetValueOp) return true;
  return same_op(op, kKernelScalarOp) || same_op(op, kScalarAccessOp) || same_op(op, kGetValueOp) ||
         same_op(op, kSetValueOp);
}

class Trace {
 public:
  bool enabled = true;
  // Appended by the API only (through append/scalar_access); cleared with clear().
  std::vector<TraceRecord> records;

  Trace() = default;
  Trace(const Trace& o) : enabled(o.enabled), records(o.records), scratch_(o.scratch_), tail_(last_of(records)) {}
  Trace& operator=(const Trace& o) {
    enabled = o.enabled, records = o.records, scratch_ = o.scratch_, tail_ = last_of(records);
    return *this;
  }
  // A moved vector keeps its storage, so tail_ moves along with it.
  Trace(Trace&& o) noexcept
      : enabled(o.enabled), records(std::move(o.records)), scratch_(o.scratch_), tail_(std::exchange(o.tail_, nullptr)) {}
  Trace& operator=(Trace&& o) noexcept {
    enabled = o.enabled, records = std::move(o.records), scratch_ = o.scratch_, tail_ = std::exchange(o.tail_, nullptr);
    return *this;
  }

  void clear() {
    records.clear();
    tail_ = nullptr;
  }
  // Records inserted after the run, before record `at` (synchronisation the device toolchain
  // adds, runtime/auto_sync.h).
  void insert(size_t at, std::initializer_list<TraceRecord> recs) {
    records.insert(records.begin() + static_cast<std::ptrdiff_t>(at), recs);
    tail_ = last_of(records);
  }

  TraceRecord* append(RecKind kind, Pipe pipe, const char* op, const std::source_location& loc) {
    flush_kernel_blocks(loc);
    if (!enabled) return &scratch_;
    return &add(kind, pipe, op, loc);
  }

  // One scalar GetValue/SetValue of `range` (bytes of element type `dtype`).
  AOC_FORCE_INLINE void scalar_access(const char* op, DType dtype, const Range& range, bool write, const std::source_location& loc) {
    flush_kernel_blocks(loc);
    if (!enabled) return;
    TraceRecord* last = foldable_last();
    if (last && fold_range(*last, range, write)) {
      if (last->elems == 0) last->op = op, last->dtype = dtype;  // plain kernel code so far
      else if (last->op != op && last->op != kScalarAccessOp && !same_op(last->op, op)) last->op = kScalarAccessOp;
      last->elems += 1;
      return;
    }
    TraceRecord& r = add(RecKind::Scalar, Pipe::S, op, loc);
    r.elems = 1;
    r.dtype = dtype;
    fold_range(r, range, write);
  }

  // Adds the kernel basic blocks counted so far to the scalar record before `loc` (the API
  // call they lead up to), or to a new one.
  AOC_FORCE_INLINE void flush_kernel_blocks(const std::source_location& loc) {
    const uint64_t blocks = tls_kernel_blocks;
    if (blocks == 0) return;
    tls_kernel_blocks = 0;
    if (!enabled) return;
    TraceRecord* last = foldable_last();
    TraceRecord& r = last ? *last : add(RecKind::Scalar, Pipe::S, kKernelScalarOp, loc);
    r.kernel_blocks += blocks;
  }

 private:
  TraceRecord& add(RecKind kind, Pipe pipe, const char* op, const std::source_location& loc) {
    TraceRecord& r = records.emplace_back();
    r.kind = kind;
    r.pipe = pipe;
    r.op = op;
    r.file = loc.file_name();
    r.line = loc.line();
    tail_ = &r;
    return r;
  }

  // The last record when scalar work may fold into it. Read through tail_ rather than
  // records.back(): this runs on every scalar access, inside functions that cannot inline the
  // standard library (aoc/instrumentation.h).
  AOC_FORCE_INLINE TraceRecord* foldable_last() {
    TraceRecord* r = tail_;
    return r != nullptr && r->kind == RecKind::Scalar && foldable_scalar_op(r->op) ? r : nullptr;
  }

  // Widens a range of `r` that `range` touches or extends contiguously (same space), or takes a
  // free slot; false when neither is possible (a separate record keeps the ranges exact).
  static AOC_FORCE_INLINE bool touches(const Range& x, const Range& range) {
    return x.space == range.space && range.lo <= x.hi && range.hi >= x.lo;
  }
  static AOC_FORCE_INLINE void widen(Range& x, const Range& range) {
    x.lo = x.lo < range.lo ? x.lo : range.lo;
    x.hi = x.hi > range.hi ? x.hi : range.hi;
  }
  static AOC_FORCE_INLINE bool fold_range(TraceRecord& r, const Range& range, bool write) {
    if (write) {
      if (!r.has_write) return r.has_write = true, r.write = range, true;
      if (!touches(r.write, range)) return false;
      widen(r.write, range);
      return true;
    }
    for (uint8_t i = 0; i < r.nreads; ++i)
      if (touches(r.reads[i], range)) return widen(r.reads[i], range), true;
    if (r.nreads == 3) return false;
    r.reads[r.nreads++] = range;
    return true;
  }

  TraceRecord scratch_;
  TraceRecord* tail_ = nullptr;  // &records.back(), or null when empty
  static TraceRecord* last_of(std::vector<TraceRecord>& v) { return v.empty() ? nullptr : &v.back(); }
};

template <typename T> constexpr DType dtype_of();

}  // namespace aoc
