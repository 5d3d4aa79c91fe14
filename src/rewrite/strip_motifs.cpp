#include "rewrite/strip_motifs.h"

#include <algorithm>
#include <optional>

#include "rewrite/motif_states.h"
#include "rewrite/rewrite_candidate.h"
#include "rewrite/rewrite_tool.h"

namespace aoc::rewrite {
namespace fs = std::filesystem;

StripOutcome strip_motifs(const aoc::eval::Candidate& c, const std::set<std::string>& keep, const fs::path& out_in,
                          const std::string& header_hash) {
  const fs::path out = fs::absolute(out_in).lexically_normal();
  std::error_code ec;
  if (fs::exists(out, ec) && !(fs::is_directory(out, ec) && fs::is_empty(out, ec)))
    throw RewriteError(out.string() + " already exists and is not an empty folder; pass --out with a new folder");
  StripOutcome r;
  aoc::eval::Candidate current = c;
  fs::path step_dir;  // the folder `current` lives in when it is a step of ours
  std::set<std::string> changed;
  const auto drop_step = [&] {
    if (!step_dir.empty()) fs::remove_all(step_dir, ec);
  };
  const auto present_in = [&](const std::vector<MotifState>& states) {
    std::vector<std::string> out;
    for (const auto& s : states)
      if (s.state == State::Present && !keep.count(s.motif) &&
          std::find(r.removed.begin(), r.removed.end(), s.motif) == r.removed.end())
        out.push_back(s.motif);
    return out;
  };
  try {
    std::vector<MotifState> states = detect_motifs(current);
    for (;;) {
      // A removal may leave another motif's pattern in place of its own; a motif never comes out
      // twice, so the loop ends after at most one step per motif of the catalogue.
      const std::vector<std::string> present = present_in(states);
      r.refused.clear();
      // The first removal (in the detector's order) after which every other present motif is
      // still present; when each loses one (barriers put into a loop hide its unrolling), the
      // first that worked.
      struct Step {
        fs::path dir;
        std::string motif;
        std::vector<std::string> changed;
        aoc::eval::Candidate cand;
        std::vector<MotifState> states;
      };
      std::optional<Step> taken, fallback;
      for (const auto& motif : present) {
        // Siblings of `out`, so the package path in candidate.toml stays right after the rename.
        const fs::path next = out.parent_path() / (out.filename().string() + ".step" +
                                                   std::to_string(r.removed.size() + 1) + "-" + motif);
        fs::remove_all(next, ec);
        const RewriteOutcome step = rewrite_candidate(current, "remove", motif, next);
        if (!step.done) {
          r.refused.emplace_back(motif, step.refused);
          continue;
        }
        Step made{next, motif, step.changed, aoc::eval::load_candidate(next, header_hash), {}};
        made.states = detect_motifs(made.cand);
        std::vector<std::string> still = present_in(made.states);
        still.push_back(motif);
        const bool loses = std::any_of(present.begin(), present.end(), [&](const std::string& m) {
          return std::find(still.begin(), still.end(), m) == still.end();
        });
        if (!loses) {
          taken = std::move(made);
          break;
        }
        if (!fallback) fallback = std::move(made);
        else fs::remove_all(next, ec);
      }
      if (!taken && fallback) taken = std::move(fallback);
      else if (fallback) fs::remove_all(fallback->dir, ec);
      if (!taken) break;
      for (const auto& f : taken->changed) changed.insert(f);
      drop_step();
      step_dir = taken->dir;
      current = std::move(taken->cand);
      states = std::move(taken->states);
      r.removed.push_back(taken->motif);
    }
    if (!r.done()) return r;
    std::string list;
    for (const auto& m : r.removed) list += (list.empty() ? "" : ", ") + m;
    write_candidate_toml(step_dir, out, c, "every removable motif taken out of " + c.dir.string() + ": " + list +
                                               " (ascendopt rewrite --remove-all, docs/motifs.md)");
    r.changed.assign(changed.begin(), changed.end());
    r.diff = diff_against(c, step_dir, r.changed);
    if (fs::exists(out)) fs::remove(out);
    fs::rename(step_dir, out);
  } catch (...) {
    // Every step folder of ours, the one in use and those being compared.
    const std::string prefix = out.filename().string() + ".step";
    for (const auto& e : fs::directory_iterator(out.parent_path(), ec))
      if (e.path().filename().string().rfind(prefix, 0) == 0) fs::remove_all(e.path(), ec);
    throw;
  }
  return r;
}

}  // namespace aoc::rewrite
