// Alternative root header some kernels include.
#pragma once
#include "kernel_operator.h"
