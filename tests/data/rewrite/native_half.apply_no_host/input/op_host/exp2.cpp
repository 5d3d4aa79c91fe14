#include <cstdint>

#include "graph/types.h"

namespace optiling {
// Every dtype is budgeted a float copy, whether the kernel makes one or not.
uint64_t BytesPerElement(ge::DataType dtype, uint32_t typeSize)
{
    return 2 * typeSize + sizeof(float);
}
}  // namespace optiling
