// How API code is instrumented in kernel translation units.
//
// Kernel units are compiled with a coverage callback per executed basic block, so that the
// kernel's own code costs scalar cycles (src/runtime/coverage.cpp), and with entry/exit hooks on
// API functions, whose blocks are API work and never counted. Blocks of API code inlined into a
// kernel still call the callback, though, only to be discarded: on a scalar loop of GetValue /
// SetValue that was most of the run time.
//
// AOC_API_UNCOUNTED marks an API function that kernels call per element: it is compiled without
// the coverage callbacks and without entry/exit hooks. The hooks only exist to stop a function's
// blocks from counting; with no callbacks in its body there is nothing to stop, and every function
// it calls that is not inlined is an API function with hooks of its own. GCC does not inline a
// function into one with different coverage instrumentation, so everything such a function calls
// on its normal path is AOC_FORCE_INLINE (inlined everywhere, instrumented like the function it
// lands in, and without hooks of its own: it only ever runs inside an API function).
//
// The same holds inside the API: a vector instruction runs its lanes in a loop
// (aoc::vec::for_each_lane and the loops of reductions, gathers and the advanced APIs), and
// per-element callbacks there, though discarded, were a quarter of a large case's run time. Those
// loops are AOC_API_UNCOUNTED too, and what they run per element is AOC_FORCE_INLINE or, for a
// lambda, AOC_LANE; a per-element call that is not inlined shows up in the `api_blocks` of
// `ascendopt run --json` (tests/sim/scalar_cost_test.cpp bounds it). They only ever run inside an
// API function, whose hooks already keep anything they call out of the kernel's count.
#pragma once

#define AOC_API_UNCOUNTED __attribute__((no_sanitize_coverage, no_instrument_function))
#define AOC_FORCE_INLINE inline __attribute__((always_inline, no_instrument_function))
#define AOC_LANE __attribute__((always_inline, no_instrument_function))
