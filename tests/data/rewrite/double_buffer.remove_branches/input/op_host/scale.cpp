#include <cstdint>

#include "tiling/tuning_knobs.h"

namespace optiling {
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t QUEUE_NUM = 2;

uint32_t TileBytes(uint32_t ubSize)
{
    uint32_t bufs = static_cast<uint32_t>(tuning::KnobRange("buffer_num", 2, 1, 2, 1, tuning::Role::BufferCount));
    return ubSize / (BUFFER_NUM * QUEUE_NUM) / 256 * 256 * BUFFER_NUM / bufs;
}
}  // namespace optiling
