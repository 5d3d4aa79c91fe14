#include "rewrite/rewrite_candidate.h"

#include <fstream>

#include "base/process.h"
#include "rewrite/rewrite_tool.h"

namespace aoc::rewrite {
namespace fs = std::filesystem;

namespace {

void copy_tree(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::create_directories(to, ec);
  fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::overwrite_existing, ec);
  if (ec) throw RewriteError("cannot copy " + from.string() + " to " + to.string() + ": " + ec.message());
}

}  // namespace

void write_candidate_toml(const fs::path& dir, const fs::path& final_dir, const aoc::eval::Candidate& c,
                          const std::string& comment) {
  std::ofstream t(dir / "candidate.toml");
  const fs::path pkg = fs::absolute(c.package.dir).lexically_normal();
  const fs::path rel = pkg.lexically_relative(final_dir);
  t << "# " << comment << "\n"
    << "package = \"" << (rel.empty() ? pkg : rel).string() << "\"\n";
  if (!t) throw RewriteError("cannot write " + (dir / "candidate.toml").string());
}

std::string diff_against(const aoc::eval::Candidate& from, const fs::path& dir, const std::vector<std::string>& changed) {
  std::string diff;
  for (const auto& rel : changed) {
    const fs::path rp = rel;
    const fs::path orig = (*rp.begin() == "op_host" ? from.sources.host : from.sources.kernel) / rp.lexically_relative(*rp.begin());
    diff += aoc::base::run_process({"diff", "-u", "--label", "a/" + rel, "--label", "b/" + rel, orig.string(),
                                    (dir / rel).string()})
                .output;
  }
  return diff;
}

RewriteOutcome rewrite_candidate(const aoc::eval::Candidate& c, const std::string& action, const std::string& motif,
                                 const fs::path& out_in) {
  const fs::path out = fs::absolute(out_in).lexically_normal();
  std::error_code ec;
  if (fs::exists(out, ec) && !(fs::is_directory(out, ec) && fs::is_empty(out, ec)))
    throw RewriteError(out.string() + " already exists and is not an empty folder; pass --out with a new folder");
  // Work beside the target and rename at the end: the folder appears whole or not at all.
  std::string tmpl = out.string() + ".partial-XXXXXX";
  fs::create_directories(out.parent_path(), ec);
  if (::mkdtemp(tmpl.data()) == nullptr) throw RewriteError("cannot create a folder beside " + out.string());
  const fs::path work = tmpl;
  RewriteOutcome r;
  try {
    copy_tree(c.sources.host, work / "op_host");
    copy_tree(c.sources.kernel, work / "op_kernel");
    const aoc::build::SourceDirs copy{work / "op_host", work / "op_kernel"};
    const ToolAnswer a = run_rewrite_tool(c, copy, action, motif, true);
    if (a.exit_code == 3) {
      r.refused = a.body.value("refused", std::string("refused"));
      fs::remove_all(work, ec);
      return r;
    }
    for (const auto& f : a.body.value("files", nlohmann::json::array()))
      r.changed.push_back(fs::path(f.get<std::string>()).lexically_relative(fs::weakly_canonical(work)).string());
    write_candidate_toml(work, out, c, action + " " + motif + " on " + c.dir.string() + " (ascendopt rewrite, docs/motifs.md)");
    r.diff = diff_against(c, work, r.changed);
    if (fs::exists(out)) fs::remove(out);
    fs::rename(work, out);
  } catch (...) {
    fs::remove_all(work, ec);
    throw;
  }
  r.done = true;
  return r;
}

}  // namespace aoc::rewrite
