// Mode enums and repeat-parameter structs of the vector API. Strides are in 32-byte
// DataBlocks unless a field says otherwise.
#pragma once
#include <cstdint>

#include "aoc/constants.h"
#include "aoc/core_state.h"

namespace AscendC {

enum class RoundMode : uint8_t {
  CAST_NONE = 0,  // exact when representable, otherwise as CAST_RINT
  CAST_RINT,      // nearest, ties to even
  CAST_FLOOR,     // toward -inf
  CAST_CEIL,      // toward +inf
  CAST_ROUND,     // nearest, ties away from zero
  CAST_TRUNC,     // toward zero
  CAST_ODD,       // von Neumann rounding (float -> half only)
};

enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };

enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };

enum class ReduceOrder : uint8_t { ORDER_VALUE_INDEX = 0, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };

enum class ReduceType : uint8_t { SUM = 0, MAX, MIN };

enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 };
constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V1;

struct BinaryRepeatParams {
  BinaryRepeatParams() = default;
  BinaryRepeatParams(uint8_t dstBlkStrideIn, uint8_t src0BlkStrideIn, uint8_t src1BlkStrideIn, uint8_t dstRepStrideIn,
                     uint8_t src0RepStrideIn, uint8_t src1RepStrideIn)
      : dstBlkStride(dstBlkStrideIn), src0BlkStride(src0BlkStrideIn), src1BlkStride(src1BlkStrideIn),
        dstRepStride(dstRepStrideIn), src0RepStride(src0RepStrideIn), src1RepStride(src1RepStrideIn) {}

  uint32_t blockNumber = DEFAULT_BLK_NUM;
  uint8_t dstBlkStride = DEFAULT_BLK_STRIDE;
  uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
  uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
  uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
  uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
  uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
};

struct UnaryRepeatParams {
  UnaryRepeatParams() = default;
  UnaryRepeatParams(uint16_t dstBlkStrideIn, uint16_t srcBlkStrideIn, uint8_t dstRepStrideIn, uint8_t srcRepStrideIn)
      : dstBlkStride(dstBlkStrideIn), srcBlkStride(srcBlkStrideIn), dstRepStride(dstRepStrideIn),
        srcRepStride(srcRepStrideIn) {}
  UnaryRepeatParams(uint16_t dstBlkStrideIn, uint16_t srcBlkStrideIn, uint8_t dstRepStrideIn, uint8_t srcRepStrideIn,
                    bool halfBlockIn)
      : dstBlkStride(dstBlkStrideIn), srcBlkStride(srcBlkStrideIn), dstRepStride(dstRepStrideIn),
        srcRepStride(srcRepStrideIn), halfBlock(halfBlockIn) {}

  uint32_t blockNumber = DEFAULT_BLK_NUM;
  uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
  uint16_t srcBlkStride = DEFAULT_BLK_STRIDE;
  uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
  uint8_t srcRepStride = DEFAULT_REPEAT_STRIDE;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
  bool halfBlock = false;
};

struct BrcbRepeatParams {
  BrcbRepeatParams() = default;
  BrcbRepeatParams(uint16_t dstBlkStrideIn, uint16_t dstRepStrideIn)
      : dstRepStride(dstRepStrideIn), dstBlkStride(dstBlkStrideIn) {}

  uint32_t blockNumber = DEFAULT_BLK_NUM;
  uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
  uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
};

struct GatherMaskParams {
  GatherMaskParams() = default;
  GatherMaskParams(uint8_t src0BlockStrideIn, uint16_t repeatTimesIn, uint16_t src0RepeatStrideIn,
                   uint8_t src1RepeatStrideIn)
      : src0BlockStride(src0BlockStrideIn), repeatTimes(repeatTimesIn), src0RepeatStride(src0RepeatStrideIn),
        src1RepeatStride(src1RepeatStrideIn) {}

  uint8_t src0BlockStride = DEFAULT_BLK_STRIDE;
  uint16_t repeatTimes = 0;
  uint16_t src0RepeatStride = DEFAULT_REPEAT_STRIDE;
  uint8_t src1RepeatStride = DEFAULT_REPEAT_STRIDE;
};

}  // namespace AscendC
