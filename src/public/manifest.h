// Manifests of public operator collections (data/public/<collection>.toml, docs/public-set.md):
// a git repository pinned to one commit, and the operator folders in it with their split.
// Reading is strict: an unknown key, a missing split, a package named twice or a commit that
// is not a full id is an error naming the file, the entry and what to write instead.
#pragma once
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace aoc::public_set {

class ManifestError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct OperatorEntry {
  std::string folder;   // operator folder inside the repository (holds op_host/ and op_kernel/)
  std::string package;  // package name (default: the folder's basename)
  std::string split;    // "train" or "test"
  std::filesystem::path golden, cases;  // resolved paths (may not exist for the defaults)
  bool golden_given = false, cases_given = false;  // written in the manifest (then they must exist)
};

struct Manifest {
  std::filesystem::path file;
  std::string name, url, commit;
  std::vector<OperatorEntry> operators;
};

// <source root>/data/public, the manifests of the project.
std::filesystem::path default_manifest_dir();

// One manifest file. Relative `golden` / `cases` paths are taken from the manifest's folder;
// the defaults are <source root>/data/compat/goldens/<package>.cpp and .cases.toml.
Manifest read_manifest(const std::filesystem::path& file);

// A manifest file, or every *.toml in a folder (sorted by name). Package names and collection
// names must be unique across them: the packages share one output folder.
std::vector<Manifest> read_manifests(const std::filesystem::path& file_or_dir);

}  // namespace aoc::public_set
