// The identity of the running program: what was compiled into it decides how a case's inputs
// are drawn and references computed, so anything kept on disk across processes from them is
// keyed by it. The linker's GNU build-id when the program has one (a hash of its content),
// else a hash of the executable file.
#pragma once
#include <filesystem>
#include <string>

namespace aoc::build {

// Hex digits; computed once per process.
const std::string& program_identity();

// The same for another executable file: its build-id read from the file's notes, else a hash
// of its content. Throws when the file cannot be read.
std::string executable_identity(const std::filesystem::path& path);

// executable_identity, worked out once per (path, size, modification time) in this process:
// a tool run per candidate (the rewriter, the API checker) is hashed once, and a rebuilt one
// afresh. "missing:<path>" when the file is not there.
std::string executable_identity_once(const std::filesystem::path& path);

}  // namespace aoc::build
