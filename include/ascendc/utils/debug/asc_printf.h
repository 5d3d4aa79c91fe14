// Printing from kernels as the toolchain's debug header offers it: AscendC::printf / PRINTF (to
// the core's printed text) and the C library's printf, which prints directly here.
#pragma once
#include <cstdio>

#include "kernel_operator.h"
