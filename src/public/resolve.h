// A public set named on the command line (`--set public:train`, `--set PATH[:test]`) resolved
// to its exported packages: the operators missing from the output folder are exported first,
// and those that failed to import (or lack a golden) are returned as skipped with the reason.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "public/export.h"

namespace aoc::public_set {

struct SetSpec {
  std::filesystem::path manifests;  // a manifest file or a folder of them
  std::string split;                // "train", "test" or "" (both)
  std::string text;                 // as written, for messages
};

// "public" is the project's manifests (data/public); anything else is a manifest file or
// folder; an optional ":train" or ":test" suffix selects a split.
SetSpec parse_set(const std::string& spec);

struct Skipped {
  std::string package, reason;
};

struct ResolvedSet {
  std::vector<std::filesystem::path> packages;  // in manifest order
  std::vector<Skipped> skipped;
};

// `opt.manifests` and `opt.split` are set from the spec; `opt.package` (when set) narrows the
// set to one package; the other fields (out, sources, work, allow_clone, progress) are the
// caller's. Throws ManifestError, or SourceError when packages
// are missing and their repository cannot be had (the message says how to export them).
ResolvedSet resolve_set(const SetSpec& spec, ExportOptions opt, const aoc::package::HostBuild& build);

}  // namespace aoc::public_set
