// Internal header of the device library that some kernels include directly; on the CPU
// everything it would provide comes with kernel_operator.h.
#pragma once
#include "kernel_operator.h"
