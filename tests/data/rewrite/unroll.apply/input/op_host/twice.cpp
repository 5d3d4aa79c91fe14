#include <cstdint>

namespace optiling {
constexpr uint32_t BUFFER_NUM = 2;

uint32_t TileElems(uint32_t ubSize, uint32_t typeSize)
{
    return ubSize / (BUFFER_NUM * 2 * typeSize) / 128 * 128;
}
}  // namespace optiling
