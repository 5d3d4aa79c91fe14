// Named constants kernels use from the AscendC headers.
#pragma once
#include <cstdint>

namespace AscendC {
constexpr int32_t ONE_BLK_SIZE = 32;           // bytes in one DataBlock
constexpr int32_t ONE_REPEAT_BYTE_SIZE = 256;  // bytes one vector repeat processes
constexpr int32_t DEFAULT_BLK_NUM = 8;         // DataBlocks per repeat
constexpr int32_t MAX_REPEAT_TIMES = 255;
constexpr int32_t DEFAULT_REPEAT_STRIDE = 8;
constexpr int32_t DEFAULT_BLK_STRIDE = 1;
constexpr int32_t BLOCK_CUBE = 16;
constexpr int32_t CUBE_MAX_SIZE = 256;
constexpr int32_t ONE_BLOCK_SIZE = 32;
constexpr uint64_t MASK_PLACEHOLDER = 0;
constexpr uint32_t TOTAL_UB_SIZE = 192 * 1024;
constexpr uint32_t TOTAL_VEC_LOCAL_SIZE = 184 * 1024;
constexpr uint32_t TOTAL_L1_SIZE = 512 * 1024;
constexpr uint32_t TOTAL_L0A_SIZE = 64 * 1024;
constexpr uint32_t TOTAL_L0B_SIZE = 64 * 1024;
constexpr uint32_t TOTAL_L0C_SIZE = 128 * 1024;
}  // namespace AscendC

constexpr uint32_t ASC_UB_SIZE = AscendC::TOTAL_UB_SIZE;
constexpr uint32_t ASC_L1_SIZE = AscendC::TOTAL_L1_SIZE;
constexpr uint32_t ASC_L0A_SIZE = AscendC::TOTAL_L0A_SIZE;
constexpr uint32_t ASC_L0B_SIZE = AscendC::TOTAL_L0B_SIZE;
constexpr uint32_t ASC_L0C_SIZE = AscendC::TOTAL_L0C_SIZE;
