// Included by single-file kernel programs when they are built for the CPU (ASCENDC_CPU_DEBUG),
// where it makes the `kernel<<<blockDim, l2ctrl, stream>>>(args)` launch syntax work on the CPU.
// Here the program build does that (`ascendopt asc`, docs/asc.md): nothing more is needed.
#pragma once
#include "aoc/chevron.h"
