// Block / core identity of the calling core (set by the launcher per logical block).
#pragma once
#include <cstdint>

#include "aoc/core_state.h"

namespace AscendC {
inline int64_t GetBlockIdx() { return aoc::core().block_idx; }
inline int64_t GetBlockNum() { return aoc::core().block_num; }
inline int64_t GetSubBlockIdx() { return aoc::core().sub_block_idx; }
inline int64_t GetSubBlockNum() { return aoc::core().sub_block_num; }
inline int64_t GetTaskRation() { return aoc::core().sub_block_num; }
inline int64_t GetTaskRatio() { return aoc::core().sub_block_num; }
// The device's cycle counter. The functional run has no clock (time comes from the timing engine
// afterwards), so this counts the instructions the core has issued so far: it grows as the
// kernel runs, and a difference of two readings is not a time.
inline int64_t GetSystemCycle() { return static_cast<int64_t>(aoc::core().trace.records.size()); }
}  // namespace AscendC

// The compiler's builtins behind those accessors, which some kernels call directly.
inline int64_t get_block_idx() { return AscendC::GetBlockIdx(); }
inline int64_t get_block_num() { return AscendC::GetBlockNum(); }
inline int64_t get_subblockid() { return AscendC::GetSubBlockIdx(); }

// Builtin variables some kernels read directly. The launcher sets them per block,
// alongside the CoreState fields the accessors above read.
inline thread_local int64_t block_idx = 0;
inline thread_local int64_t block_num = 1;
inline thread_local int64_t sub_block_idx = 0;
inline thread_local int64_t sub_block_num = 1;
