// The options shared by `public export`, `bench --set` and `optimize --set` (docs/public-set.md):
// where the exported packages go, where each collection's repository is, whether to clone.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "public/export.h"
#include "public/resolve.h"

namespace aoc::cli {

struct PublicFlags {
  std::vector<std::string> sources;  // NAME=DIR
  std::string public_dir, work, cache_dir;
  bool clone = false;
};

// --source, --public-dir, --public-work and --clone; for `public export`, which clones by
// default, --source, --out and --work.
void add_public_flags(CLI::App* cmd, PublicFlags& f, bool for_export);

// The export options the flags give; throws std::invalid_argument for a bad --source.
aoc::public_set::ExportOptions export_options(const PublicFlags& f);

// export_public_set with import's host build on a builder of the flags' cache folder.
aoc::public_set::ExportSummary export_public_set(const aoc::public_set::ExportOptions& o, const PublicFlags& f);

// The packages of a set spec, exporting the missing ones first; skipped operators are printed
// on stderr with their reason. Throws std::exception with a message that says what to do.
// `package`, when given, narrows the set to that package (only it is exported).
aoc::public_set::ResolvedSet resolve_public_set(const std::string& spec, const PublicFlags& f,
                                                const std::string& package = "");

}  // namespace aoc::cli
