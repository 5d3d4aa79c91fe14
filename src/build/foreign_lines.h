// Compiler output cleared of what it says about files outside a build's folders.
//
// A compiler that reads a file it should not (an include of /etc/passwd, where the sandbox is
// not available) quotes that file in its messages: the line it stopped at, the tokens it
// expected, a caret under them. Those messages are stored with the build and shown to whoever
// evaluates the candidate, so they are withheld here, whatever the compiler could read.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace aoc::build {

// `log` without the messages located in a file outside `folders` (absolute paths; relative
// names such as <command-line> are kept) and without the source excerpts that follow them;
// one closing line counts what was withheld.
std::string withhold_foreign_lines(const std::string& log, const std::vector<std::filesystem::path>& folders);

}  // namespace aoc::build
