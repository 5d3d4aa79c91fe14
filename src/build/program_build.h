// The build of a single-file kernel program (build/program_source.h): one unit compiled as a
// kernel unit (the AscendC headers, scalar-cost instrumentation, the launch syntax of
// aoc/chevron.h) into a shared object whose `main` is renamed aoc_program_main, for the program
// host (aoc-asc-host) to load and run.
#pragma once
#include <filesystem>

#include "build/request.h"

namespace aoc::build {

inline constexpr const char* kProgramMain = "aoc_program_main";

// `source` is the rewritten program, alone in its folder; `home` is the folder of the original,
// whose headers (the samples' data_utils.h) the program includes.
BuildRequest program_build_request(const std::filesystem::path& source, const std::filesystem::path& root,
                                   const std::filesystem::path& home);

}  // namespace aoc::build
