// The candidate's own file names in what its built code reports.
//
// The compiler reads content-named copies of the candidate's folders (build/staged_sources.h),
// so __FILE__ and std::source_location in the built library name those copies
// (<cache>/sources/<hash>/1/op_kernel/add.cpp), and in a unit whose object is shared across
// folders (op_host, build/object_cache.h) the folder's last name alone (op_host/add.cpp). Every
// message that comes from the running kernel (runtime errors, race reports, GM guard messages,
// warnings) passes through here to name the candidate's folders instead, or the package's for
// an op_host the candidate took from its package.
#pragma once
#include <string>
#include <vector>

namespace aoc::eval {

struct SourceNames {
  std::vector<std::string> staged;    // the copies' folders (BuildResult::staged_dirs) ...
  std::vector<std::string> original;  // ... and the folders they stand for (BuildResult::source_dirs)

  // `text` with the copies' paths, and the bare folder names the shared objects use, written
  // as the original folders.
  std::string operator()(const std::string& text) const;
};

}  // namespace aoc::eval
