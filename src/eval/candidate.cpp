#include "eval/candidate.h"

#include <toml++/toml.h>

#include <algorithm>

#include "base/content_hash.h"

namespace aoc::eval {
namespace fs = std::filesystem;

namespace {
fs::path without_trailing_slash(const fs::path& p) {
  fs::path n = p.lexically_normal();
  return n.has_filename() ? n : n.parent_path();
}
}  // namespace

bool is_expert_folder(const fs::path& dir) {
  const fs::path d = without_trailing_slash(dir);
  return d.filename() == "expert" && fs::exists(d.parent_path() / "op.toml") && !fs::exists(d / "candidate.toml");
}

namespace {
bool is_candidate(const fs::path& d) {
  return fs::exists(d / "op.toml") || fs::exists(d / "candidate.toml") || is_expert_folder(d);
}
}  // namespace

std::vector<fs::path> find_candidates(const fs::path& p) {
  if (is_candidate(p)) return {p};
  std::vector<fs::path> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(p, fs::directory_options::skip_permission_denied, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    if (!it->is_directory() || !is_candidate(it->path())) continue;
    out.push_back(it->path());
    it.disable_recursion_pending();
  }
  std::sort(out.begin(), out.end());
  return out;
}

Candidate load_candidate(const fs::path& dir, const std::string& header_hash) {
  Candidate c;
  c.dir = dir;
  if (!fs::is_directory(dir)) throw CandidateError(dir.string() + " is not a folder; pass a candidate folder "
                                                                  "(op_kernel/ + candidate.toml) or an operator package");
  fs::path package_dir = dir;
  if (is_expert_folder(dir)) {
    // A package's expert/ folder is a candidate of that package without a candidate.toml.
    package_dir = without_trailing_slash(dir).parent_path();
    if (!fs::is_directory(dir / "op_kernel"))
      throw CandidateError(dir.string() + " has no op_kernel/ folder; an expert folder holds op_kernel/ and optionally op_host/");
  } else if (!fs::exists(dir / "op.toml")) {
    const fs::path toml = dir / "candidate.toml";
    if (!fs::exists(toml))
      throw CandidateError(dir.string() + " has neither op.toml nor candidate.toml; add candidate.toml with "
                                          "package = \"<path of the operator package>\"");
    toml::table t;
    try {
      t = toml::parse_file(toml.string());
    } catch (const toml::parse_error& e) {
      throw CandidateError(toml.string() + ": " + std::string(e.description()));
    }
    const auto pkg = t["package"].value<std::string>();
    if (!pkg) throw CandidateError(toml.string() + ": key 'package' (a string path to the operator package) is missing");
    package_dir = fs::path(*pkg).is_absolute() ? fs::path(*pkg) : dir / *pkg;
    if (!fs::exists(package_dir / "op.toml"))
      throw CandidateError(toml.string() + ": package = \"" + *pkg + "\" does not lead to a folder with op.toml (" +
                           package_dir.string() + ")");
    if (!fs::is_directory(dir / "op_kernel"))
      throw CandidateError(dir.string() + " has no op_kernel/ folder; copy the package's op_kernel/ and modify it");
  }
  c.package = aoc::package::load_op_package(package_dir);
  c.sources = build::SourceDirs::of(c.package);
  if (dir != package_dir) {
    c.sources.kernel = dir / "op_kernel";
    if (fs::is_directory(dir / "op_host")) c.sources.host = dir / "op_host";
  }
  base::ContentHash h;
  h.add("aoc-candidate-v1").add(header_hash).add(c.package.name);
  h.add(base::tree_hash(c.sources.host)).add(base::tree_hash(c.sources.kernel));
  h.add_file(c.package.toml_path).add_file(c.package.golden_source());
  c.hash = h.hex();
  return c;
}

}  // namespace aoc::eval
