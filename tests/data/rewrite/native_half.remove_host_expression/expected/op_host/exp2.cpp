#include <cstdint>

#include "graph/types.h"

namespace optiling {
uint64_t BytesPerElement(const ge::DataType* dtypes, uint32_t typeSize)
{
    bool computeInFloat = dtypes[0] != ge::DT_FLOAT;
    uint64_t bytes = 2 * typeSize;
    if (computeInFloat) {
        bytes += sizeof(float);
    }
    return bytes;
}
}  // namespace optiling
