// Line handling shared by answer parsing and edit application.
#pragma once
#include <string>
#include <vector>

namespace aoc::llm {

std::string trim(const std::string& s);
std::string rtrim(const std::string& s);
// Lines without their '\n' (and a '\r' before it); no empty last line for a final newline.
std::vector<std::string> split_lines(const std::string& s);
// Lines [from, to) joined by '\n', no final newline.
std::string join_lines(const std::vector<std::string>& lines, size_t from, size_t to);

}  // namespace aoc::llm
