// Static check of a candidate's sources before anything is built: a kernel (and its
// tiling code) has no business touching host facilities (files, network, threads,
// processes, clocks, the environment, raw system calls, dynamic loading, /proc) or
// reaching memory through integers cast to pointers. Each finding names the file,
// the line and the rule, so the author knows exactly what to remove.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace aoc::eval {

struct SourceFinding {
  std::string file;  // as given (path of the scanned file)
  int line = 0;
  std::string rule;  // "file-io", "network", "threads", "processes", "clock", "environment",
                     // "asm", "syscall", "dynamic-loading", "proc-fs", "int-to-pointer", "include"
                     // (eval/include_check.h) and "api-use" (eval/api_use_check.h)
  std::string text;    // the offending token (api-use: the qualified name it refers to)
  int column = 0;      // api-use only (0: unknown)
  std::string advice;  // what is wrong and what to do, where the rule's own advice does not say it
                       // (include: the path's problem; api-use: why the name is refused)
  std::string message() const;  // "file:line: rule 'x': `text` ... (what to do)"
};

// Scans one source text; comments are ignored, string literals only for paths.
std::vector<SourceFinding> check_source_text(const std::string& file, const std::string& text);

struct IncludeScope;

// Scans every .cpp/.cc/.h/.hpp file in the folders (recursively). With `includes`, every file
// of the folders also meets the include rules (eval/include_check.h), and so does every
// symbolic link in them.
std::vector<SourceFinding> check_sources(const std::vector<std::filesystem::path>& dirs,
                                         const IncludeScope* includes = nullptr);

}  // namespace aoc::eval
