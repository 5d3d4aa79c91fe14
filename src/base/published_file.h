// Files shared by processes and threads (caches, stores) appear whole or not at all: each is
// written under a temporary name of its own beside its final name, then renamed over it.
#pragma once
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

namespace aoc::base {

// A name beside `path` that no other call, thread or process uses, on any machine sharing the
// folder: `<path>.tmp.<host>.<pid>.<serial>`.
std::filesystem::path temporary_beside(const std::filesystem::path& path);

// Creates `path`'s folder, has `write` write the file at the temporary name it is given (it says
// whether it succeeded), then renames it to `path`. On failure nothing is left behind, `path` is
// what it was, and `error` (when given) says what failed.
bool publish(const std::filesystem::path& path, const std::function<bool(const std::filesystem::path&)>& write,
             std::string* error = nullptr);

// publish() of a file holding `contents`.
bool publish_text(const std::filesystem::path& path, std::string_view contents, std::string* error = nullptr);

// publish() of a copy of the file `from`.
bool publish_copy(const std::filesystem::path& path, const std::filesystem::path& from, std::string* error = nullptr);

}  // namespace aoc::base
