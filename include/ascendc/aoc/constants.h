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

// Integer helpers of the device headers' utilities, which kernel_operator.h brings in. They are
// plain uint32_t functions there, not templates: a kernel's own global `template <class T> T
// AlignUp(T, T)` stays callable (an exact template match beats a converting non-template, and
// with uint32_t arguments the non-template wins, which computes the same value).
constexpr uint32_t DivCeil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
constexpr uint32_t AlignUp(uint32_t a, uint32_t b) { return DivCeil(a, b) * b; }
constexpr uint32_t ConstCeil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
inline uint32_t Ceil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
}  // namespace AscendC

constexpr uint32_t ASC_UB_SIZE = AscendC::TOTAL_UB_SIZE;
constexpr uint32_t ASC_L1_SIZE = AscendC::TOTAL_L1_SIZE;
constexpr uint32_t ASC_L0A_SIZE = AscendC::TOTAL_L0A_SIZE;
constexpr uint32_t ASC_L0B_SIZE = AscendC::TOTAL_L0B_SIZE;
constexpr uint32_t ASC_L0C_SIZE = AscendC::TOTAL_L0C_SIZE;
