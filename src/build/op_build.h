// Build requests for an operator package (or a candidate copy of its op_host/ and
// op_kernel/): one kernel shared object per dtype variant, compiled with the msopgen
// per-argument macros, and the golden in a shared object of its own.
#pragma once
#include <filesystem>

#include "build/builder.h"
#include "package/op_package.h"

namespace aoc::build {

// Where the sources come from: the package itself, or a candidate's modified copy.
struct SourceDirs {
  std::filesystem::path host;    // op_host/
  std::filesystem::path kernel;  // op_kernel/
  static SourceDirs of(const aoc::package::OpPackage& p) { return {p.dir / "op_host", p.dir / "op_kernel"}; }
};

// -DDTYPE_<ARG>=<c++ type>, -DORIG_DTYPE_<ARG>=<DT_...>, -DFORMAT_<ARG>=FORMAT_<fmt> for
// every input and output of variant `v`, ARG being the upper-cased argument name.
std::vector<std::string> dtype_macros(const aoc::package::OpPackage& p, size_t v);

BuildRequest kernel_build_request(const aoc::package::OpPackage& p, size_t variant, const SourceDirs& dirs,
                                  const std::filesystem::path& root);
// same_precision: build with golden_api::real = float (the fallback's CPU baseline).
BuildRequest golden_build_request(const aoc::package::OpPackage& p, const std::filesystem::path& root,
                                  bool same_precision = false);

}  // namespace aoc::build
