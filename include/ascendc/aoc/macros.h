// Keyword and platform macros of the AscendC dialect, defined for a CPU build.
// On the device these are compiler builtins; on the CPU they must vanish so that
// kernel sources compile unchanged with g++.
#pragma once
#include <cstdint>

#define __global__
#define __aicore__
#define __gm__
#define __ubuf__
#define __cbuf__
#define __ca__
#define __cb__
#define __cc__
#define __fbuf__
#define __ssbuf__
#define __vector__
#define __cube__
#define __host__
#define __mix__(cube, vec)
#define __schedmode__(mode)
#define __in_pipe__(p)
#define __out_pipe__(p)
#define __inout_pipe__(p)

#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 2201
#endif
// The device compiler's core version of the same cores (dav-c220): kernels choose their A2 code
// paths with `#if __CCE_AICORE__ == 220`.
#ifndef __CCE_AICORE__
#define __CCE_AICORE__ 220
#endif

#define GM_ADDR __gm__ uint8_t*

// Branch hints the device headers define for kernels.
#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

#ifndef ASCENDC_CPU_DEBUG
#define ASCENDC_CPU_DEBUG 1
#endif

namespace AscendC {
// Core type tags, the values g_coreType takes.
constexpr int32_t AIC = 1;
constexpr int32_t AIV = 2;
constexpr int32_t MIX = 0;
}  // namespace AscendC

// The core type of the calling core; the launcher sets it per logical block.
inline thread_local int32_t g_coreType = AscendC::AIV;

// Real kernels write `if ASCEND_IS_AIV { ... }`, so these must be parenthesised expressions.
#define ASCEND_IS_AIV (g_coreType == AscendC::AIV)
#define ASCEND_IS_AIC (g_coreType == AscendC::AIC)
#define ASCEND_IS_NOT_AIV (g_coreType != AscendC::AIV)
#define ASCEND_IS_NOT_AIC (g_coreType != AscendC::AIC)

// Device builds compile ASSERT away without looking at its argument, and production
// kernels rely on that (e.g. ASSERT(GetBlockNum() != 0) with no AscendC:: qualification).
// Evaluating it here would reject kernels that build for the NPU, so it expands to
// nothing (some kernels even omit the semicolon before it); our own checks (aoc::check)
// cover what the device cannot.
#ifndef ASSERT
#define ASSERT(...)
#endif
