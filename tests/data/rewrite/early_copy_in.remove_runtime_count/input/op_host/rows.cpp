#include <cstdint>

namespace optiling {
constexpr uint32_t BUFFER_NUM = 2;

uint32_t RowsPerTile(uint32_t ubSize, uint32_t rowBytes)
{
    return ubSize / (BUFFER_NUM * 2 * rowBytes);
}
}  // namespace optiling
