// What an msopgen op_host/<op>.cpp includes: OpDef, the gert contexts, and OP_ADD, which
// constructs the op class (a subclass of ops::OpDef taking its type name) and copies its
// description into aoc::host::OpRegistry when the translation unit is loaded.
#pragma once
// Host code of public operators prints with std::cout without including <iostream>: the device
// toolchain's host headers bring it in, so this one does too.
#include <iostream>

#include "aoc/host/infer_context.h"
#include "aoc/host/op_registry.h"
#include "aoc/host/tiling_context.h"
#include "register/op_def.h"
#include "register/tilingdata_base.h"

#define OP_ADD(op_type, ...)                                                               \
  [[maybe_unused]] static const bool aoc_op_added_##op_type =                             \
      ::aoc::host::OpRegistry::instance().add(op_type(#op_type))
