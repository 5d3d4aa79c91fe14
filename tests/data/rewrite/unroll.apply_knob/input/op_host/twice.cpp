#include <cstdint>

#include "tiling/tuning_knobs.h"

namespace optiling {
constexpr uint32_t BUFFER_NUM = 2;

uint32_t TileElems(uint32_t ubSize, uint32_t typeSize)
{
    uint32_t bufs = static_cast<uint32_t>(tuning::Knob("buffer_num", BUFFER_NUM, {1, 2}, tuning::Role::BufferCount));
    return ubSize / (bufs * 2 * typeSize) / 128 * 128;
}
}  // namespace optiling
