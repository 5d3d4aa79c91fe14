// Kernel-side tiling structs of the advanced APIs. Host code fills them (lib/adv_tiling.h),
// the tiling bytes travel to the kernel unchanged, and the kernel passes them to the API.
// Field order and types match the device headers so that byte layouts agree.
#pragma once
#include <cstdint>
#include <cstring>

namespace AscendC {
namespace tiling {

struct SoftMaxTiling {
  uint32_t srcM = 0;
  uint32_t srcK = 0;
  uint32_t srcSize = 0;
  uint32_t outMaxM = 0;
  uint32_t outMaxK = 0;
  uint32_t outMaxSize = 0;
  uint32_t splitM = 0;
  uint32_t splitK = 0;
  uint32_t splitSize = 0;
  uint32_t reduceM = 0;
  uint32_t reduceK = 0;
  uint32_t reduceSize = 0;
  uint32_t rangeM = 0;
  uint32_t tailM = 0;
  uint32_t tailSplitSize = 0;
  uint32_t tailReduceSize = 0;
};

// Same layout as SoftMaxTiling; a distinct type because the device headers declare it so.
struct LogSoftMaxTiling {
  uint32_t srcM = 0;
  uint32_t srcK = 0;
  uint32_t srcSize = 0;
  uint32_t outMaxM = 0;
  uint32_t outMaxK = 0;
  uint32_t outMaxSize = 0;
  uint32_t splitM = 0;
  uint32_t splitK = 0;
  uint32_t splitSize = 0;
  uint32_t reduceM = 0;
  uint32_t reduceK = 0;
  uint32_t reduceSize = 0;
  uint32_t rangeM = 0;
  uint32_t tailM = 0;
  uint32_t tailSplitSize = 0;
  uint32_t tailReduceSize = 0;
};

struct LayerNormTiling {
  uint32_t bLength = 0;
  uint32_t sLength = 0;
  uint32_t hLength = 0;
  uint32_t originalHLength = 0;
  uint32_t inputXSize = 0;
  uint32_t meanVarSize = 0;
  uint32_t numberOfTmpBuf = 0;
  uint32_t meanTmpTensorPos = 0;
  uint32_t meanTmpTensorSize = 0;
  uint32_t varianceTmpTensorPos = 0;
  uint32_t varianceTmpTensorSize = 0;
  uint32_t tmpBufSize = 0;
  uint32_t oneTmpSize = 0;
  uint32_t firstTmpStartPos = 0;
  uint32_t secondTmpStartPos = 0;
  uint32_t thirdTmpStartPos = 0;
  uint32_t loopRound = 0;
  uint32_t inputRoundSize = 0;
  uint32_t inputTailSize = 0;
  uint32_t inputTailPos = 0;
  uint32_t meanVarRoundSize = 0;
  uint32_t meanVarTailSize = 0;
  uint32_t meanVarTailPos = 0;
  uint32_t bshCurLength = 0;
  uint32_t bsCurLength = 0;
  float lastDimValueBack = 0;
};

struct LayerNormSeparateTiling {
  uint32_t aLength = 0;
  uint32_t rLength = 0;
  uint32_t halfAddRepeatTimes = 0;
  uint32_t rHeadLength = 0;
  float k2Rec = 0;
  float k2RRec = 0;
  uint32_t inputXSize = 0;
  uint32_t meanVarSize = 0;
  uint32_t numberOfTmpBuf = 0;
  uint32_t varianceTmpTensorPos = 0;
  uint32_t varianceTmpTensorSize = 0;
  uint32_t tmpBufSize = 0;
  uint32_t oneTmpSize = 0;
  uint32_t firstTmpStartPos = 0;
  uint32_t secondTmpStartPos = 0;
  uint32_t thirdTmpStartPos = 0;
  uint32_t loopRound = 0;
  uint32_t inputRoundSize = 0;
  uint32_t inputTailSize = 0;
  uint32_t inputTailPos = 0;
  uint32_t meanVarRoundSize = 0;
  uint32_t meanVarTailSize = 0;
  uint32_t meanVarTailPos = 0;
  uint32_t arCurLength = 0;
  uint32_t aCurLength = 0;
  float rValueBack = 0;
};

struct RmsNormTiling {
  uint32_t bLength = 0;
  uint32_t sLength = 0;
  uint32_t hLength = 0;
  uint32_t originalHLength = 0;
  float reciprocalOfHLength = 0;
  uint32_t mainBshLength = 0;
  uint32_t mainBsLength = 0;
  uint32_t mainBsLengthAlign = 0;
  uint32_t loopRound = 0;
  uint32_t inputTailPos = 0;
  uint32_t tailBshLength = 0;
  uint32_t tailBsLength = 0;
};

}  // namespace tiling

using tiling::LayerNormSeparateTiling;
using tiling::LayerNormTiling;
using tiling::LogSoftMaxTiling;
using tiling::RmsNormTiling;
using tiling::SoftMaxTiling;

}  // namespace AscendC

// Real kernels name these structs unqualified.
using AscendC::tiling::LayerNormSeparateTiling;
using AscendC::tiling::LayerNormTiling;
using AscendC::tiling::LogSoftMaxTiling;
using AscendC::tiling::RmsNormTiling;
using AscendC::tiling::SoftMaxTiling;
