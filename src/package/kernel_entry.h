// The kernel entry of an operator's op_kernel/ folder: the one `extern "C" __global__ __aicore__
// void <name>(...)` function, found in the source text as written or as the kernel's own macros
// expand it (entries declared through a macro, `DECLARE_KERNEL(half)`), so import can name the
// symbol op.toml must launch.
#pragma once
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace aoc::package {

struct KernelEntry {
  std::string symbol;
  std::filesystem::path file;
  size_t params = 0;
  bool from_macro = false;  // found in a macro expansion, not in the text
};

// Every entry in `source`: those written out, and those the object-like and function-like macros
// of the file and of `header_text` (the folder's headers; only their #defines are read) expand
// to (nested macros, `#` and `##` included).
std::vector<KernelEntry> kernel_entries_in(const std::string& source, const std::filesystem::path& file,
                                           const std::string& header_text = "");

// The single entry of op_kernel/*.cpp; throws ImportError (op_import.h) when there is none or
// there are several, saying what to do.
KernelEntry find_kernel_entry(const std::filesystem::path& kernel_dir);

}  // namespace aoc::package
