// `ascendopt public export`: every operator of the manifests exported from its collection's
// pinned commit, imported as a package (package/op_import.h), given its golden and cases, and
// recorded in the index of the output folder. Operators recorded at the same commit, folder,
// golden and cases are skipped, so an interrupted export resumes (docs/public-set.md).
#pragma once
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "package/op_import.h"
#include "public/index.h"
#include "public/manifest.h"

namespace aoc::public_set {

std::filesystem::path default_public_dir();  // <cache dir>/public: the packages and the index
std::filesystem::path default_work_dir();    // <cache dir>/public-work: clones and exports

struct ExportOptions {
  std::vector<Manifest> manifests;
  std::map<std::string, std::filesystem::path> sources;  // collection name -> local repository
  std::filesystem::path out = default_public_dir();
  std::filesystem::path work = default_work_dir();  // <work>/sources/<collection> are the clones
  bool allow_clone = true;    // clone a collection that has no --source and no clone yet
  bool force = false;         // redo operators already exported
  bool retry_failed = true;   // redo operators whose import failed at the same commit
  std::string split;          // only the operators of this split ("" for all)
  std::string package;        // only this package ("" for all)
  std::function<void(const std::string&)> progress;  // one line per operator
};

// Whether the options' split and package filters select the operator.
bool selected(const ExportOptions& opt, const OperatorEntry& op);

struct ExportSummary {
  Index index;  // the whole index of `out` after the export
  size_t exported = 0, skipped = 0, failed = 0;
};

// Throws ManifestError / SourceError (a repository that cannot be had, a commit it lacks);
// an operator that fails to export or import is recorded as failed with its reason.
ExportSummary export_public_set(const ExportOptions& opt, const aoc::package::HostBuild& build);

// Whether the operator's index entry is its export at the manifest's commit, folder and inputs,
// and its package is in `out` (or its import failed there, when `failed_counts`).
bool is_current(const std::filesystem::path& out, const IndexEntry* e, const Manifest& m, const OperatorEntry& op,
                bool failed_counts = false);

// Parses NAME=DIR (the --source option); throws std::invalid_argument.
std::pair<std::string, std::filesystem::path> parse_source(const std::string& arg);

}  // namespace aoc::public_set
