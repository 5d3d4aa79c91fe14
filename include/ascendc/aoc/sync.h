// Intra-core and inter-core synchronisation: pipes, hardware events, SetFlag /
// WaitFlag, PipeBarrier, SyncAll and the data-cache flush. The functional run
// executes every call in program order, so these calls do not block here; they
// check the pairing rules the device relies on and leave trace records from which
// the timing engine and the hazard checker rebuild the cross-pipe ordering.
#pragma once
#include <concepts>
#include <cstdint>
#include <source_location>

#include "aoc/core_state.h"
#include "aoc/error.h"
#include "aoc/tensor.h"
#include "aoc/trace.h"

// Compiler builtins on the device, so kernels use them unqualified. The values
// follow aoc::Pipe so that conversion is a cast.
enum pipe_t : uint8_t {
  PIPE_S = 0, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_FIX, PIPE_ALL
};

enum event_t : uint8_t {
  EVENT_ID0 = 0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7
};

namespace AscendC {

using TEventID = int8_t;

// Named source_destination, e.g. MTE2_V: the vector pipe waits for MTE2.
enum class HardEvent : uint8_t {
  MTE2_MTE1, MTE1_MTE2, MTE1_M, M_MTE1, MTE2_V, V_MTE2, MTE3_V, V_MTE3, M_V, V_M, V_V, MTE3_MTE1, MTE1_MTE3,
  MTE1_V, MTE2_M, M_MTE2, V_MTE1, M_FIX, FIX_M, MTE3_MTE2, MTE2_MTE3, S_V, V_S, S_MTE2, MTE2_S, S_MTE3, MTE3_S,
  MTE2_FIX, FIX_MTE2, FIX_S, M_S, FIX_MTE3, MTE1_FIX, FIX_MTE1, FIX_FIX, MAX
};

enum class CacheLine : uint8_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class DcciDst : uint8_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };

}  // namespace AscendC

namespace aoc {

constexpr Pipe to_pipe(pipe_t p) { return static_cast<Pipe>(p); }

struct PipePair {
  Pipe src;
  Pipe dst;
};

// The source and destination pipe of a hardware event.
constexpr PipePair pipes_of(AscendC::HardEvent e) {
  using E = AscendC::HardEvent;
  switch (e) {
    case E::MTE2_MTE1: return {Pipe::MTE2, Pipe::MTE1};
    case E::MTE1_MTE2: return {Pipe::MTE1, Pipe::MTE2};
    case E::MTE1_M: return {Pipe::MTE1, Pipe::M};
    case E::M_MTE1: return {Pipe::M, Pipe::MTE1};
    case E::MTE2_V: return {Pipe::MTE2, Pipe::V};
    case E::V_MTE2: return {Pipe::V, Pipe::MTE2};
    case E::MTE3_V: return {Pipe::MTE3, Pipe::V};
    case E::V_MTE3: return {Pipe::V, Pipe::MTE3};
    case E::M_V: return {Pipe::M, Pipe::V};
    case E::V_M: return {Pipe::V, Pipe::M};
    case E::V_V: return {Pipe::V, Pipe::V};
    case E::MTE3_MTE1: return {Pipe::MTE3, Pipe::MTE1};
    case E::MTE1_MTE3: return {Pipe::MTE1, Pipe::MTE3};
    case E::MTE1_V: return {Pipe::MTE1, Pipe::V};
    case E::MTE2_M: return {Pipe::MTE2, Pipe::M};
    case E::M_MTE2: return {Pipe::M, Pipe::MTE2};
    case E::V_MTE1: return {Pipe::V, Pipe::MTE1};
    case E::M_FIX: return {Pipe::M, Pipe::FIX};
    case E::FIX_M: return {Pipe::FIX, Pipe::M};
    case E::MTE3_MTE2: return {Pipe::MTE3, Pipe::MTE2};
    case E::MTE2_MTE3: return {Pipe::MTE2, Pipe::MTE3};
    case E::S_V: return {Pipe::S, Pipe::V};
    case E::V_S: return {Pipe::V, Pipe::S};
    case E::S_MTE2: return {Pipe::S, Pipe::MTE2};
    case E::MTE2_S: return {Pipe::MTE2, Pipe::S};
    case E::S_MTE3: return {Pipe::S, Pipe::MTE3};
    case E::MTE3_S: return {Pipe::MTE3, Pipe::S};
    case E::MTE2_FIX: return {Pipe::MTE2, Pipe::FIX};
    case E::FIX_MTE2: return {Pipe::FIX, Pipe::MTE2};
    case E::FIX_S: return {Pipe::FIX, Pipe::S};
    case E::M_S: return {Pipe::M, Pipe::S};
    case E::FIX_MTE3: return {Pipe::FIX, Pipe::MTE3};
    case E::MTE1_FIX: return {Pipe::MTE1, Pipe::FIX};
    case E::FIX_MTE1: return {Pipe::FIX, Pipe::MTE1};
    case E::FIX_FIX: return {Pipe::FIX, Pipe::FIX};
    case E::MAX: break;
  }
  return {Pipe::S, Pipe::S};
}

// The hardware event of a (source, destination) pipe pair, HardEvent::MAX when the pair has none.
constexpr AscendC::HardEvent event_of(Pipe src, Pipe dst) {
  for (uint8_t i = 0; i < static_cast<uint8_t>(AscendC::HardEvent::MAX); ++i) {
    const auto e = static_cast<AscendC::HardEvent>(i);
    const PipePair pp = pipes_of(e);
    if (pp.src == src && pp.dst == dst) return e;
  }
  return AscendC::HardEvent::MAX;
}

inline const char* hard_event_name(AscendC::HardEvent e) {
  static const char* const names[] = {
      "MTE2_MTE1", "MTE1_MTE2", "MTE1_M", "M_MTE1", "MTE2_V", "V_MTE2", "MTE3_V", "V_MTE3", "M_V", "V_M", "V_V",
      "MTE3_MTE1", "MTE1_MTE3", "MTE1_V", "MTE2_M", "M_MTE2", "V_MTE1", "M_FIX", "FIX_M", "MTE3_MTE2", "MTE2_MTE3",
      "S_V", "V_S", "S_MTE2", "MTE2_S", "S_MTE3", "MTE3_S", "MTE2_FIX", "FIX_MTE2", "FIX_S", "M_S", "FIX_MTE3",
      "MTE1_FIX", "FIX_MTE1", "FIX_FIX"};
  auto i = static_cast<unsigned>(e);
  return i < sizeof(names) / sizeof(names[0]) ? names[i] : "MAX";
}

inline void check_event_id(const char* api, AscendC::HardEvent e, int32_t id, const std::source_location& loc) {
  const uint32_t n = core().limits.event_ids;
  check(id >= 0 && static_cast<uint32_t>(id) < std::min<uint32_t>(n, 32), api, loc, api, "<", hard_event_name(e), ">(",
        id, "): event id out of range, this core has ids 0..", std::min<uint32_t>(n, 32) - 1);
}

inline TraceRecord* append_flag_record(RecKind kind, Pipe src, Pipe dst, uint32_t id, bool implicit, const char* op,
                                       const std::source_location& loc) {
  TraceRecord* r = core().trace.append(kind, src, op, loc);
  r->peer = dst;
  r->event_id = static_cast<uint8_t>(id);
  r->implicit = implicit;
  return r;
}

inline void set_flag(AscendC::HardEvent e, int32_t id, const std::source_location& loc) {
  check(e != AscendC::HardEvent::MAX, "SetFlag", loc, "HardEvent::MAX is not an event");
  check_event_id("SetFlag", e, id, loc);
  const PipePair pp = pipes_of(e);
  FlagState& flags = core().flags;
  check(flags.count(pp.src, pp.dst, id) < FlagState::kMaxSets, "SetFlag", loc, "SetFlag<", hard_event_name(e), ">(",
        id, ") is set a fourth time before a WaitFlag took any of the earlier sets");
  flags.set(pp.src, pp.dst, id);
  append_flag_record(RecKind::SetFlag, pp.src, pp.dst, static_cast<uint32_t>(id), false, "SetFlag", loc);
}

inline void wait_flag(AscendC::HardEvent e, int32_t id, const std::source_location& loc) {
  check(e != AscendC::HardEvent::MAX, "WaitFlag", loc, "HardEvent::MAX is not an event");
  check_event_id("WaitFlag", e, id, loc);
  const PipePair pp = pipes_of(e);
  FlagState& flags = core().flags;
  check(flags.count(pp.src, pp.dst, id) != 0, "WaitFlag", loc, "WaitFlag<", hard_event_name(e), ">(", id,
        ") has no matching SetFlag: the pipe would wait forever");
  flags.take(pp.src, pp.dst, id);
  append_flag_record(RecKind::WaitFlag, pp.src, pp.dst, static_cast<uint32_t>(id), false, "WaitFlag", loc);
}

// Inter-core barrier shared by both SyncAll forms.
inline void sync_all(const char* op, const std::source_location& loc) {
  CoreState& c = core();
  c.trace.append(RecKind::SyncAll, Pipe::ALL, op, loc);
  if (c.barrier_fn != nullptr) {
    c.barrier_fn(c.barrier_ctx);
    return;
  }
  check(c.block_num <= 1, "SyncAll", loc, "SyncAll with ", c.block_num,
        " blocks needs the multi-core launcher (no barrier is installed on this core)");
}

}  // namespace aoc

namespace AscendC {

template <HardEvent event>
inline void SetFlag(int32_t eventID, std::source_location loc = std::source_location::current()) {
  aoc::set_flag(event, eventID, loc);
}
template <HardEvent event, typename Id>
  requires std::same_as<Id, TEventID>
inline void SetFlag(Id eventID, std::source_location loc = std::source_location::current()) {
  aoc::set_flag(event, eventID, loc);
}

template <HardEvent event>
inline void WaitFlag(int32_t eventID, std::source_location loc = std::source_location::current()) {
  aoc::wait_flag(event, eventID, loc);
}
template <HardEvent event, typename Id>
  requires std::same_as<Id, TEventID>
inline void WaitFlag(Id eventID, std::source_location loc = std::source_location::current()) {
  aoc::wait_flag(event, eventID, loc);
}

// A pair of pipes synchronised through event flags: SetFlag on `src`, WaitFlag on `dst`, with
// the same rules as SetFlag<HardEvent>/WaitFlag<HardEvent> for the event of that pair.
template <pipe_t src, pipe_t dst> class TQueSync {
  static constexpr HardEvent kEvent = aoc::event_of(aoc::to_pipe(src), aoc::to_pipe(dst));
  static_assert(kEvent != HardEvent::MAX, "TQueSync: this pair of pipes has no hardware event");

 public:
  void SetFlag(TEventID eventID, std::source_location loc = std::source_location::current()) {
    aoc::set_flag(kEvent, eventID, loc);
  }
  void WaitFlag(TEventID eventID, std::source_location loc = std::source_location::current()) {
    aoc::wait_flag(kEvent, eventID, loc);
  }
};

// All earlier instructions of `pipe` finish before later ones start; PIPE_ALL drains every pipe.
template <pipe_t pipe>
inline void PipeBarrier(std::source_location loc = std::source_location::current()) {
  aoc::check(pipe != PIPE_S, "PipeBarrier", loc,
             "PipeBarrier<PIPE_S> is not supported: the scalar pipe executes in order already");
  aoc::core().trace.append(aoc::RecKind::Barrier, aoc::to_pipe(pipe), "PipeBarrier", loc);
}

// Hard inter-core barrier over all blocks of the launch.
template <bool isAIVOnly = true>
inline void SyncAll(std::source_location loc = std::source_location::current()) {
  aoc::sync_all("SyncAll", loc);
}

// Soft form: on the device the cores poll a GM workspace; the workspaces must be
// usable, the ordering effect is the same barrier.
template <bool isAIVOnly = true>
inline void SyncAll(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
                    const int32_t usedCores = 0, std::source_location loc = std::source_location::current()) {
  const int64_t cores = usedCores > 0 ? usedCores : aoc::core().block_num;
  // One 32 B block of flags per core in GM, one block of scratch in UB.
  gmWorkspace.aoc_check(0, static_cast<uint64_t>(cores) * 8, "SyncAll", loc);
  ubWorkspace.aoc_check(0, 8, "SyncAll", loc);
  aoc::sync_all("SyncAll", loc);
}

// Scalar GM accesses go through a data cache; this flush matters on the device only.
// Recorded so that the timing engine can charge it.
template <typename T, CacheLine entireType, DcciDst dcciDst>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst,
                                     std::source_location loc = std::source_location::current()) {
  aoc::TraceRecord* r = aoc::core().trace.append(aoc::RecKind::Scalar, aoc::Pipe::S, "DataCacheCleanAndInvalid", loc);
  r->elems = 1;
}
template <typename T, CacheLine entireType, DcciDst dcciDst>
inline void DataCacheCleanAndInvalid(const LocalTensor<T>& dst,
                                     std::source_location loc = std::source_location::current()) {
  aoc::TraceRecord* r = aoc::core().trace.append(aoc::RecKind::Scalar, aoc::Pipe::S, "DataCacheCleanAndInvalid", loc);
  r->elems = 1;
}
template <typename T, CacheLine entireType>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst,
                                     std::source_location loc = std::source_location::current()) {
  aoc::TraceRecord* r = aoc::core().trace.append(aoc::RecKind::Scalar, aoc::Pipe::S, "DataCacheCleanAndInvalid", loc);
  r->elems = 1;
}

}  // namespace AscendC
