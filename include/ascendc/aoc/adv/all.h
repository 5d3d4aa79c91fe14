// Advanced ("high-level") APIs: activations, math functions, SoftMax family, LayerNorm,
// RmsNorm. Included by kernel_operator.h.
#pragma once
#include "aoc/adv/activation.h"
#include "aoc/adv/layernorm.h"
#include "aoc/adv/math.h"
#include "aoc/adv/rmsnorm.h"
#include "aoc/adv/softmax.h"
#include "aoc/adv/broadcast.h"
