// Compiler messages as data: file, line, column, severity, text. A failed build
// returns these so callers (CLI, agent, LLM prompt) can point at the exact line.
#pragma once
#include <string>
#include <vector>

namespace aoc::build {

struct Diagnostic {
  std::string file;
  int line = 0;
  int column = 0;
  std::string severity;  // "error", "fatal error", "warning", "note", "linker"
  std::string message;
};

// Parses g++/ld output. Lines that are not diagnostics (source excerpts, carets,
// "In function" context) are skipped; "undefined reference" linker lines are kept.
std::vector<Diagnostic> parse_diagnostics(const std::string& compiler_output);

// Only errors (what made the build fail).
std::vector<Diagnostic> errors_only(const std::vector<Diagnostic>& ds);

std::string to_string(const Diagnostic& d);

}  // namespace aoc::build
