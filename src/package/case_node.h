// The operator node host code sees for one case: the case's input shapes, the variant's
// dtypes and the package's formats, and the attributes (defaults filled in) in OpDef
// order. InferShape runs on it; the tiling context is built from the same description.
#pragma once
#include <cstdint>
#include <vector>

#include "aoc/host/node_desc.h"
#include "package/op_package.h"

namespace aoc::package {

ge::DataType ge_data_type(ElemType t);
ge::Format ge_format(const std::string& format);

// Inputs and attributes only; the caller appends outputs when it knows their shapes.
aoc::host::NodeDesc case_node(const OpPackage& p, const CaseSpec& c);

}  // namespace aoc::package
