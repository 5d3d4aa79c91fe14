// Reading entries from JSON written by hand, by other tools or by `ascendopt bank export
// --json`: a list of objects (or {"entries": [...]}) each with at least the strings title,
// description, bottleneck and diff. Entries without a measured kind are text-only ("text").
// Anything malformed refuses the whole file with the entry index and the field named.
#pragma once
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "bank/entry.h"

namespace aoc::bank {

// Entries that cannot be taken from a file (not an operator folder's import: package::ImportError).
class EntryImportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws EntryImportError ("entry 2: field \"diff\" is missing (a string is required)").
std::vector<Entry> entries_from_json(const nlohmann::json& j);
// Reads and parses the file; throws EntryImportError naming it.
std::vector<Entry> read_import_file(const std::filesystem::path& file);

}  // namespace aoc::bank
