// Textual edits of operator files and their application.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "kernel_model.h"

namespace aoc::rewrite {

struct Edit {
  std::string file;
  uint32_t begin = 0;
  uint32_t end = 0;
  std::string text;
};

Edit replace(const Range& r, std::string text);
// Erases a statement; when nothing else is left on its line(s), the whole lines go.
Edit erase_statement(const KernelModel& m, const Range& stmt);
// Inserts `text` as new lines before the line holding `at`, indented like that line.
Edit insert_line_before(const KernelModel& m, const Range& at, const std::string& text);
// Inserts `text` as a new line after the line where `at` ends (after a comment ending that
// line too), indented like the line holding `at`.
Edit insert_line_after(const KernelModel& m, const Range& at, const std::string& text);
// Leading blanks of the line holding offset `at`.
std::string indent_at(const KernelModel& m, const Range& at);

// Applies the edits to the model's file contents; returns the changed files' new text.
// Overlapping edits are an error (std::invalid_argument).
std::map<std::string, std::string> apply_edits(const KernelModel& m, std::vector<Edit> edits);

}  // namespace aoc::rewrite
