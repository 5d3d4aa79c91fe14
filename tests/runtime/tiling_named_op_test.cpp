// GET_TILING_DATA when a translation unit registers several ops: the build names the op
// with AOC_OP_TYPE, and registrations may also sit in the global namespace.
#include <gtest/gtest.h>

#define AOC_OP_TYPE SecondOp
#include "register/tilingdata_base.h"

BEGIN_TILING_DATA_DEF(FirstTiling)
  TILING_DATA_FIELD_DEF(uint32_t, a);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(FirstOp, FirstTiling)

BEGIN_TILING_DATA_DEF(SecondTiling)
  TILING_DATA_FIELD_DEF(uint64_t, b);
  TILING_DATA_FIELD_DEF(uint64_t, c);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(SecondOp, SecondTiling);

#include "kernel_operator.h"

TEST(TilingNamedOp, BuildNamedOpWinsOverEarlierRegistration) {
  SecondTiling host;
  host.set_b(5);
  host.set_c(6);
  uint8_t bytes[sizeof(SecondTiling)];
  host.SaveToBuffer(bytes, sizeof(bytes));
  GET_TILING_DATA(t, bytes);
  static_assert(std::is_same_v<decltype(t), SecondTiling>);
  EXPECT_EQ(t.c, 6u);
}
