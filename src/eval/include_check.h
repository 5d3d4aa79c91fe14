// The include rules of the static check: what a candidate's preprocessor may read.
//
// A kernel's sources may include headers from its own op_host/ and op_kernel/, the package's
// folder, the AscendC headers and the system's; nothing else. An include naming an absolute
// path, climbing out of those folders with "..", or computed from a macro (which no reading of
// the source can follow) is refused with its line, as are `#pragma GCC dependency` (which
// reads any file's time stamp and name) and `__has_include` probes outside the folders. The
// compiler runs sandboxed as well (docs/eval.md, "Isolation"); this check gives the author the
// line and what to do before anything is compiled.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "eval/source_check.h"

namespace aoc::eval {

struct IncludeScope {
  // The compiler's -I folders in command-line order: a `..` include is looked up in them (after
  // the including file's own folder for a quoted one) the way the preprocessor does.
  std::vector<std::filesystem::path> search;
  // The folders an include may reach (the candidate's op_host/ and op_kernel/, the package, the
  // AscendC headers). System headers are reached by plain names, never by paths.
  std::vector<std::filesystem::path> allowed;
};

// Findings of rule "include" in the text of `file` (a path on disk: quoted includes are
// resolved from its folder).
std::vector<SourceFinding> check_includes(const std::filesystem::path& file, const std::string& text,
                                          const IncludeScope& scope);

// A finding for `entry` (a symbolic link inside the candidate's folders) when its target lies
// outside `scope.allowed`: the build would read the file it points to as the candidate's own.
std::vector<SourceFinding> check_link(const std::filesystem::path& entry, const IncludeScope& scope);

}  // namespace aoc::eval
