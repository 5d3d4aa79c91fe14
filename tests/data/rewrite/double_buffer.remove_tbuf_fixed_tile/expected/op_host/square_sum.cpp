#include <cstdint>

namespace optiling {
constexpr uint32_t BUFFER_NUM = 1;

// The tile leaves room for two buffers of each queue and the scratch, whatever the kernel's
// buffer count: with one buffer the tile stays the same.
uint32_t TileLength(uint32_t ubSize, uint32_t typeSize)
{
    return ubSize / 6 / typeSize / 64 * 64;
}
}  // namespace optiling
