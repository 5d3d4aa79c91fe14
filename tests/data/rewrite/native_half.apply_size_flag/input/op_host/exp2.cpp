#include <cstdint>

#include "graph/types.h"

namespace optiling {
constexpr uint32_t FLOAT_SIZE = 4;

uint64_t BytesPerElement(ge::DataType dtype)
{
    uint32_t typeSize = ge::GetSizeByDataType(dtype);
    bool computeInFloat = typeSize != FLOAT_SIZE;
    uint64_t bytes = 2 * typeSize;
    if (computeInFloat) {
        bytes += FLOAT_SIZE;
    }
    return bytes;
}
}  // namespace optiling
