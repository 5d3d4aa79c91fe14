#include "build/program_build.h"

#include <algorithm>

#include "runtime/coverage.h"

namespace aoc::build {
namespace fs = std::filesystem;

BuildRequest program_build_request(const fs::path& source, const fs::path& root, const fs::path& home) {
  BuildRequest r;
  r.label = "program " + source.stem().string();
  r.flags = {"-I" + (root / "include" / "ascendc").string(), "-I" + source.parent_path().string(),
             "-I" + home.string(), std::string("-Dmain=") + kProgramMain};
  const fs::path kernel_header = root / "include" / "ascendc" / "kernel_operator.h";
  std::vector<std::string> unit_flags = {"-include", "aoc/chevron.h",
                                         aoc::runtime::kernel_sources_flag({source.parent_path().string()})};
  // Host code shares the unit: printf stays the C library's (kernel_operator.h). A header flag, so
  // the precompiled kernel_operator.h is built with it too.
  std::vector<std::string> header_flags = aoc::runtime::scalar_coverage_flags();
  header_flags.push_back("-DAOC_PROGRAM_UNIT");
  r.units.push_back({source, unit_flags, kernel_header, header_flags});
  r.hash_dirs = {source.parent_path()};
  // The headers beside the original are part of the build (not the whole folder: it may be large).
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(home, ec)) {
    const std::string ext = e.path().extension().string();
    if (e.is_regular_file() && (ext == ".h" || ext == ".hpp" || ext == ".inc")) r.hash_files.push_back(e.path());
  }
  std::sort(r.hash_files.begin(), r.hash_files.end());
  return r;
}

}  // namespace aoc::build
