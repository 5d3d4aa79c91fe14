#include <cstdint>

namespace optiling {
constexpr uint32_t BUFFER_NUM = 2;

// UB is split in three parts per buffer: input, output and the scratch.
uint32_t TileLength(uint32_t ubSize, uint32_t typeSize)
{
    return ubSize / 3 / BUFFER_NUM / typeSize / 64 * 64;
}
}  // namespace optiling
