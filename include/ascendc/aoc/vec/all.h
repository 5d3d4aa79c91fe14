// Basic vector compute API (AscendC "Memory vector" instructions) on the CPU.
#pragma once
#include "aoc/vec/params.h"
#include "aoc/vec/mask.h"
#include "aoc/vec/engine.h"
#include "aoc/vec/arith.h"
#include "aoc/vec/forms.h"
#include "aoc/vec/binary.h"
#include "aoc/vec/unary.h"
#include "aoc/vec/scalar.h"
#include "aoc/vec/ternary.h"
#include "aoc/vec/fill.h"
#include "aoc/vec/cast.h"
#include "aoc/vec/cmpsel.h"
