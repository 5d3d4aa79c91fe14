#pragma once
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 1;
#define TILE_BYTES(n, T) ((n) * sizeof(T))
