#include "rewind/mined_entry.h"

#include <sstream>

#include "bank/features.h"

namespace aoc::rewind {
namespace fs = std::filesystem;

namespace {

std::string ratio_text(double v) {
  std::ostringstream os;
  os.precision(3);
  os << std::fixed << v;
  return os.str();
}

}  // namespace

std::string source_label(const fs::path& dir, const fs::path& root) {
  const fs::path abs = fs::absolute(dir).lexically_normal();
  if (!root.empty()) {
    const fs::path rel = abs.lexically_relative(fs::absolute(root).lexically_normal());
    if (!rel.empty() && *rel.begin() != "..") return rel.string();
  }
  return abs.string();
}

aoc::bank::Entry make_entry(const aoc::eval::Candidate& c, const aoc::rewrite::MotifState& state,
                            const aoc::eval::CandidateReport& optimized, const aoc::eval::CandidateReport& rewound,
                            const std::string& diff, const RewindOptions& opt, const std::string& what) {
  aoc::bank::Entry e;
  e.motif = state.motif;
  e.op = c.package.name;
  e.category = c.package.category;
  e.source_path = source_label(c.dir, opt.source_root);
  e.source_hash = c.hash;
  e.diff = diff;
  for (const auto& oc : optimized.cases) {
    if (!oc.sim_us) continue;
    for (const auto& rc : rewound.cases)
      if (rc.name == oc.name && rc.sim_us) e.cases.push_back({oc.name, *oc.sim_us, *rc.sim_us});
  }
  e.geomean = aoc::bank::geomean_speedup(e.cases);
  e.kind = *e.geomean > 1.0 + opt.threshold ? aoc::bank::kPositive : aoc::bank::kNegative;
  e.context = aoc::bank::context_of(optimized);
  e.profile.before = aoc::bank::mean_pipe_times(optimized);
  e.profile.after = aoc::bank::mean_pipe_times(rewound);
  e.profile.bound_before = aoc::bank::busiest_pipe(e.profile.before);
  e.profile.bound_after = aoc::bank::busiest_pipe(e.profile.after);
  e.provenance = measurement_settings(opt);
  e.provenance["kernel_hash"] = c.hash;
  e.provenance["tool"] = "ascendopt 0.1.0";
  e.provenance["rewound_hash"] = rewound.candidate_hash;
  e.title = (what.empty() ? state.motif : what) + " in " + c.package.name + " (" + (e.kind == aoc::bank::kPositive ? "worth " : "not worth ") +
            ratio_text(*e.geomean) + "x)";
  e.description = state.summary + (state.summary.empty() ? "" : ". ") + (what.empty() ? "" : what + ". ") +
                  "Removing it from " + e.source_path +
                  " made it " + ratio_text(*e.geomean) + "x as slow (geomean over " +
                  std::to_string(e.cases.size()) + " public cases). Detector: " + state.reason;
  e.bottleneck = "bound by " + (e.profile.bound_before.empty() ? std::string("?") : e.profile.bound_before) +
                 " with the motif, " + (e.profile.bound_after.empty() ? std::string("?") : e.profile.bound_after) +
                 " without";
  if (e.context.vec_mte2_ratio) e.bottleneck += "; vector/MTE2 time " + ratio_text(*e.context.vec_mte2_ratio);
  return e;
}

aoc::rewrite::MotifState unclassified() {
  // No detector names it: its state is not read (entries take the motif, summary and reason).
  return {aoc::bank::kUnclassified, "", aoc::rewrite::State::NotApplicable, "no motif's detector state changes", {}};
}

aoc::rewrite::MotifState removed_motif(const std::vector<aoc::rewrite::MotifState>& before,
                                       const std::vector<aoc::rewrite::MotifState>& after, const std::string& prefer) {
  auto gone = [&](const aoc::rewrite::MotifState& b) {
    if (b.state != aoc::rewrite::State::Present) return false;
    for (const auto& a : after)
      if (a.motif == b.motif) return a.state != aoc::rewrite::State::Present;
    return false;
  };
  for (const auto& b : before)
    if (b.motif == prefer && gone(b)) return b;
  for (const auto& b : before)
    if (gone(b)) return b;
  return unclassified();
}

nlohmann::json measurement_settings(const RewindOptions& opt) {
  return {{"soc", opt.eval.soc},
          {"seed", opt.eval.seed},
          {"threshold", opt.threshold},
          {"cases", opt.eval.only_cases.empty() ? "public" : "selected"}};
}

std::optional<aoc::bank::Entry> already_mined(const std::vector<aoc::bank::Entry>& existing, const std::string& hash,
                                              const std::string& motif, const std::string& diff,
                                              const RewindOptions& opt) {
  const nlohmann::json settings = measurement_settings(opt);
  for (const auto& e : existing) {
    if (e.source_hash != hash || e.motif != motif || e.diff != diff || e.kind == aoc::bank::kText) continue;
    bool same = true;
    for (const auto& [key, value] : settings.items()) same = same && e.provenance.value(key, nlohmann::json()) == value;
    if (same) return e;
  }
  return std::nullopt;
}

void store_entry(RewoundMotif& row, const aoc::bank::Entry& e, aoc::bank::Bank& bank) {
  if (e.cases.empty()) {
    row.status = "failed";
    row.reason = "no simulated times to compare (evaluate with a SoC)";
    return;
  }
  row.status = e.kind;
  row.speedup = e.geomean;
  row.entry_id = bank.insert(e);
}

}  // namespace aoc::rewind
