#include "build/program_build.h"

#include "runtime/coverage.h"

namespace aoc::build {
namespace fs = std::filesystem;

BuildRequest program_build_request(const fs::path& source, const fs::path& root) {
  BuildRequest r;
  r.label = "program " + source.stem().string();
  r.flags = {"-I" + (root / "include" / "ascendc").string(), "-I" + source.parent_path().string(),
             std::string("-Dmain=") + kProgramMain};
  const fs::path kernel_header = root / "include" / "ascendc" / "kernel_operator.h";
  std::vector<std::string> unit_flags = {"-include", "aoc/chevron.h",
                                         aoc::runtime::kernel_sources_flag({source.parent_path().string()})};
  r.units.push_back({source, unit_flags, kernel_header, aoc::runtime::scalar_coverage_flags()});
  r.hash_dirs = {source.parent_path()};
  return r;
}

}  // namespace aoc::build
