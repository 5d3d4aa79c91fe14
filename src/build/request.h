// What one build compiles: translation units, flags and the files its cache key covers. Made by
// build/op_build.h for packages and candidates, staged by build/staged_sources.h, run by build/builder.h.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace aoc::build {

struct CompileUnit {
  std::filesystem::path source;
  std::vector<std::string> flags;  // flags for this translation unit only (e.g. -include)
  // A header the unit starts with (kernel_operator.h for a kernel, aoc/host/precompiled.h for
  // op_host): compiled once per flag set into a precompiled header in the cache and
  // force-included first, so a cold unit skips it.
  std::filesystem::path precompiled;
  // Flags that change how the header itself compiles (instrumentation): they key and
  // build the precompiled header too, since a header precompiled without them would
  // bring uninstrumented functions into the unit.
  std::vector<std::string> header_flags;
  // The object does not depend on the folder its sources are in (op_host): it is cached on its
  // own across builds and folders (build/object_cache.h), so a candidate that changed only its
  // kernel compiles only the kernel.
  bool relocatable = false;
};

struct BuildRequest {
  std::string label;                              // for messages: "add float16 kernel"
  std::vector<CompileUnit> units;
  std::vector<std::string> flags;                 // for every unit: -D, -I ...
  std::vector<std::filesystem::path> hash_dirs;   // every file in these folders is part of the key
  std::vector<std::filesystem::path> hash_files;  // further files the build reads (headers elsewhere)
  // Folders the compiler may read besides those the command names (sources, -I, -include):
  // the package folder of a candidate. Everything else but the system is out of its sight.
  std::vector<std::filesystem::path> read_dirs;
};

}  // namespace aoc::build
