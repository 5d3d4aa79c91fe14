#include <cstdint>

#include "graph/types.h"

namespace optiling {
uint64_t BytesPerElement(ge::DataType dtype, uint32_t typeSize)
{
    bool computeInFloat = dtype != ge::DT_FLOAT;
    uint64_t bytes = 2 * typeSize;
    if (computeInFloat) {
        bytes += sizeof(float);
    }
    return bytes;
}
}  // namespace optiling
