#include "build/host_library.h"

namespace aoc::build {

package::HostBuild host_library_build(Builder& builder) {
  return [&builder](const package::HostSources& s) {
    BuildRequest req;
    req.label = s.label;
    const std::filesystem::path root = builder.options().root;
    req.flags = {"-I" + (root / "include" / "ascendc").string(), "-I" + s.host.string(), "-I" + s.kernel.string()};
    for (const auto& f : s.units) req.units.emplace_back().source = f;
    req.hash_dirs = {s.host};
    const BuildResult b = builder.build(req);
    return b.ok ? package::HostLibrary{b.library, ""} : package::HostLibrary{{}, b.first_error()};
  };
}

}  // namespace aoc::build
