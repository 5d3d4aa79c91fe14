#include "build/staged_sources.h"

#include <stdlib.h>

#include <stdexcept>
#include <system_error>

#include "base/content_hash.h"
#include "build/object_cache.h"

namespace aoc::build {
namespace fs = std::filesystem;

std::string StagedSources::unstage(const std::string& text) const {
  return substitute_folders(text, staged, original);
}

namespace {

fs::path folder_name(const fs::path& d) { return d.filename().empty() ? d.parent_path().filename() : d.filename(); }

// Publishes the copies at `dest` whole: a reader sees all of them or none.
void publish_copies(const std::vector<fs::path>& dirs, const std::vector<fs::path>& relative, const fs::path& dest) {
  std::error_code ec;
  fs::create_directories(dest.parent_path(), ec);
  std::string tmpl = dest.string() + ".tmp.XXXXXX";
  if (::mkdtemp(tmpl.data()) == nullptr)
    throw std::runtime_error("cannot create a folder in " + dest.parent_path().string() +
                             " (set --cache-dir or AOC_CACHE_DIR to a writable folder)");
  const fs::path tmp = tmpl;
  for (size_t i = 0; i < dirs.size(); ++i) {
    fs::create_directories(tmp / relative[i], ec);
    fs::copy(dirs[i], tmp / relative[i], fs::copy_options::recursive, ec);
    if (ec) {
      fs::remove_all(tmp, ec);
      throw std::runtime_error("cannot copy " + dirs[i].string() + " into the build cache: " + ec.message());
    }
  }
  fs::rename(tmp, dest, ec);
  // Another process published the same content first: its copy is as good as ours.
  if (ec) fs::remove_all(tmp, ec);
  if (!fs::is_directory(dest)) throw std::runtime_error("cannot publish the staged sources at " + dest.string());
}

}  // namespace

StagedSources stage_sources(const BuildRequest& req, const fs::path& cache_dir) {
  StagedSources s{req, {}, {}};
  std::vector<fs::path> dirs, relative;
  base::ContentHash h;
  h.add("aoc-staged-sources-v1");
  for (size_t i = 0; i < req.hash_dirs.size(); ++i) {
    const fs::path& d = req.hash_dirs[i];
    if (!fs::is_directory(d)) continue;
    dirs.push_back(d);
    relative.push_back(fs::path(std::to_string(i)) / folder_name(d));
    h.add(relative.back().string()).add(base::tree_hash(d));
  }
  if (dirs.empty()) return s;
  const fs::path dest = cache_dir / "sources" / h.hex();
  if (!fs::is_directory(dest)) publish_copies(dirs, relative, dest);

  std::vector<std::string> from;
  for (size_t i = 0; i < dirs.size(); ++i) {
    from.push_back(dirs[i].string());
    s.original.push_back(dirs[i].string());
    s.staged.push_back((dest / relative[i]).string());
  }
  auto swap_all = [&](std::vector<std::string>& flags) {
    for (auto& f : flags) f = substitute_folders(f, from, s.staged);
  };
  BuildRequest& r = s.request;
  swap_all(r.flags);
  for (auto& u : r.units) {
    u.source = substitute_folders(u.source.string(), from, s.staged);
    swap_all(u.flags);
    swap_all(u.header_flags);
  }
  for (auto& d : r.hash_dirs) d = substitute_folders(d.string(), from, s.staged);
  return s;
}

}  // namespace aoc::build
