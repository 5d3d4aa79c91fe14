#include "public/resolve.h"

#include "public/git_source.h"

namespace aoc::public_set {
namespace fs = std::filesystem;

SetSpec parse_set(const std::string& spec) {
  SetSpec s;
  s.text = spec;
  std::string path = spec;
  for (const char* split : {"train", "test"}) {
    const std::string suffix = std::string(":") + split;
    if (path.size() > suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0) {
      s.split = split;
      path.resize(path.size() - suffix.size());
    }
  }
  s.manifests = path == "public" ? default_manifest_dir() : fs::path(path);
  return s;
}

ResolvedSet resolve_set(const SetSpec& spec, ExportOptions opt, const aoc::package::HostBuild& build) {
  opt.manifests = read_manifests(spec.manifests);
  opt.split = spec.split;
  opt.force = false;
  opt.retry_failed = false;
  const Index before = read_index(opt.out);
  bool missing = false;
  for (const auto& m : opt.manifests) {
    std::string lacking;
    for (const auto& op : m.operators)
      if (selected(opt, op) && !is_current(opt.out, before.find(op.package), m, op, true))
        lacking += (lacking.empty() ? "" : ", ") + op.package;
    missing = missing || !lacking.empty();
    if (!lacking.empty() && !opt.sources.count(m.name) && !opt.allow_clone && !has_clone(opt.work / "sources", m.name))
      throw SourceError("the set " + spec.text + " is not exported in " + opt.out.string() + " (missing: " + lacking +
                        "); export it first with `ascendopt public export --manifest " + m.file.string() +
                        " --source " + m.name + "=DIR --out " + opt.out.string() + "` (DIR a clone of " + m.url +
                        "; without --source it is cloned), or give --source " + m.name + "=DIR or --clone here");
  }
  try {
    const Index index = missing ? export_public_set(opt, build).index : before;
    ResolvedSet r;
    for (const auto& m : opt.manifests)
      for (const auto& op : m.operators) {
        if (!selected(opt, op)) continue;
        const IndexEntry* e = index.find(op.package);
        if (e != nullptr && e->status == "ok") r.packages.push_back(opt.out / op.package);
        else r.skipped.push_back({op.package, e == nullptr ? "not exported" : e->status + ": " + e->error});
      }
    return r;
  } catch (const SourceError& e) {
    throw SourceError("the public set " + spec.text + " is not all exported in " + opt.out.string() + ": " + e.what());
  }
}

}  // namespace aoc::public_set
