// Whole files as text: read and written as bytes, with the errors every caller used to spell out.
#pragma once
#include <filesystem>
#include <string>
#include <string_view>

namespace aoc::base {

// The file's bytes; "" when it cannot be read (a missing log, an optional file).
std::string read_text(const std::filesystem::path& p);

// The file's bytes; throws std::runtime_error("cannot read P") when it cannot be read.
std::string read_text_or_throw(const std::filesystem::path& p);

// Writes `text` as the whole file; throws std::runtime_error("cannot write P") on failure.
// Readers in other processes may see a partial file: see published_file.h for caches.
void write_text(const std::filesystem::path& p, std::string_view text);

}  // namespace aoc::base
