#include "public/git_source.h"

#include <vector>

#include "base/process.h"

namespace aoc::public_set {
namespace fs = std::filesystem;

namespace {

// Runs git with `args` in `repo` (no shell, no prompt for credentials).
aoc::base::ProcessResult git(const fs::path& repo, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"env", "GIT_TERMINAL_PROMPT=0", "git"};
  if (!repo.empty()) argv.insert(argv.end(), {"-C", repo.string()});
  argv.insert(argv.end(), args.begin(), args.end());
  return aoc::base::run_process(argv);
}

std::string first_line(const std::string& s) {
  const size_t start = s.find_first_not_of("\n ");
  if (start == std::string::npos) return "";
  return s.substr(start, s.find('\n', start) - start);
}

bool is_repository(const fs::path& dir) { return git(dir, {"rev-parse", "--git-dir"}).exit_code == 0; }

}  // namespace

fs::path repository_for(const std::string& name, const std::string& url, const fs::path& dir, const fs::path& clones,
                        bool allow_clone) {
  if (!dir.empty()) {
    if (!fs::is_directory(dir) || !is_repository(dir))
      throw SourceError("--source " + name + "=" + dir.string() + " is not a git repository (a clone or bare clone of " +
                        url + ")");
    return fs::absolute(dir);
  }
  const fs::path clone = clones / name;
  if (has_clone(clones, name)) return clone;
  if (!allow_clone)
    throw SourceError("collection " + name + " has no repository: give a clone of " + url + " with --source " + name +
                      "=DIR, or allow cloning it into " + clone.string());
  std::error_code ec;
  fs::remove_all(clone, ec);
  fs::create_directories(clones, ec);
  const auto r = git({}, {"clone", "--quiet", "--bare", url, clone.string()});
  if (r.exit_code != 0) {
    fs::remove_all(clone, ec);
    throw SourceError("cannot clone " + url + " into " + clone.string() + ": " + first_line(r.output) +
                      " (without network, pass --source " + name + "=DIR with a local clone)");
  }
  return clone;
}

bool has_clone(const fs::path& clones, const std::string& name) {
  return fs::is_directory(clones / name) && is_repository(clones / name);
}

bool has_commit(const fs::path& repo, const std::string& commit) {
  return git(repo, {"cat-file", "-e", commit + "^{commit}"}).exit_code == 0;
}

bool fetch(const fs::path& repo) {
  return git(repo, {"fetch", "--quiet", "origin", "+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"}).exit_code == 0;
}

void export_folder(const fs::path& repo, const std::string& commit, const std::string& folder, const fs::path& to) {
  std::error_code ec;
  fs::remove_all(to, ec);
  fs::create_directories(to);
  const fs::path tar = to / ".export.tar";
  const auto a = git(repo, {"archive", "--format=tar", "-o", tar.string(), commit + ":" + folder, "op_host", "op_kernel"});
  if (a.exit_code != 0)
    throw SourceError("git archive of " + folder + "/op_host and op_kernel at " + commit.substr(0, 12) + ": " +
                      first_line(a.output));
  const auto x = aoc::base::run_process({"tar", "-x", "-f", tar.string(), "-C", to.string()});
  fs::remove(tar, ec);
  if (x.exit_code != 0) throw SourceError("cannot unpack the export of " + folder + ": " + first_line(x.output));
}

}  // namespace aoc::public_set
