// The compiler's identity for build-cache keys: what `--version` and `-dumpmachine` print.
// Asking costs two process starts (about 80 ms) at every start of a program that builds, so
// the answer is kept in the cache folder, keyed by the compiler binary's resolved path, size
// and modification time: installing another compiler under the same name changes the key.
// A compiler given as a script (a wrapper whose own compiler may change without it) is asked
// every time.
#pragma once
#include <filesystem>
#include <string>

namespace aoc::build {

std::string compiler_identity(const std::string& compiler, const std::filesystem::path& cache_dir);

}  // namespace aoc::build
