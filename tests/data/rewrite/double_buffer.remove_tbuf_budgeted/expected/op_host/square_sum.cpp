#include <cstdint>

namespace optiling {
constexpr uint32_t BUFFER_NUM = 1;

// Bytes per element of a tile: the buffers of both queues, and the float scratch once.
uint32_t TileLength(uint32_t ubSize, uint32_t typeSize)
{
    return ubSize / (BUFFER_NUM * 2 * typeSize + sizeof(float)) / 64 * 64;
}
}  // namespace optiling
