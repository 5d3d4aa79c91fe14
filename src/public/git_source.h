// The repository of a collection, reached with the git program (run as a child process, never
// through a shell): a local clone given by the user, or a bare clone made in the work folder;
// operator folders are exported from the pinned commit with `git archive`.
#pragma once
#include <filesystem>
#include <stdexcept>
#include <string>

namespace aoc::public_set {

class SourceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `dir` when given (it must be a git repository), else <clones>/<name>: cloned bare from `url`
// when `allow_clone` (reused when already there), else a SourceError that says how to get it.
std::filesystem::path repository_for(const std::string& name, const std::string& url, const std::filesystem::path& dir,
                                     const std::filesystem::path& clones, bool allow_clone);

// Whether <clones>/<name> is a clone made earlier.
bool has_clone(const std::filesystem::path& clones, const std::string& name);

// Whether `commit` is a commit of the repository.
bool has_commit(const std::filesystem::path& repo, const std::string& commit);

// Fetches every branch and tag of the remote `origin` (a clone made by repository_for that
// lacks a newer pinned commit); whether it succeeded.
bool fetch(const std::filesystem::path& repo);

// Writes `folder`/op_host and `folder`/op_kernel as they are at `commit` into `to` (created
// empty). Throws SourceError with git's message when the folder is not there.
void export_folder(const std::filesystem::path& repo, const std::string& commit, const std::string& folder,
                   const std::filesystem::path& to);

}  // namespace aoc::public_set
