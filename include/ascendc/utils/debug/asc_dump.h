// Dumping tensors from kernels as the toolchain's debug header offers it: AscendC::DumpTensor (to
// the core's printed text, aoc/print.h).
#pragma once
#include "kernel_operator.h"
