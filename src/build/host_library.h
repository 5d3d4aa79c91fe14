// The build of an msopgen folder's op_host/ that `ascendopt import` loads to read its OpDef:
// the sources against the AscendC headers of this repository, through a Builder's cache.
#pragma once
#include "build/builder.h"
#include "package/op_import.h"

namespace aoc::build {

// Builds with `builder`, which must outlive the returned function.
package::HostBuild host_library_build(Builder& builder);

}  // namespace aoc::build
