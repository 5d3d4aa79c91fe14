#include "rewind/rewind.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <sstream>

#include "base/file_text.h"
#include "base/process.h"
#include "build/header_hash.h"
#include "eval/eval_pool.h"
#include "rewind/hunk_groups.h"
#include "rewind/hunks.h"
#include "rewind/llm_removals.h"
#include "rewind/mined_entry.h"
#include "rewrite/motif_states.h"
#include "rewrite/rewrite_candidate.h"

namespace aoc::rewind {
namespace fs = std::filesystem;

namespace {

std::string header_hash(aoc::build::Builder& builder) { return aoc::build::ascendc_header_hash(builder.options().root); }

// The rewound candidate folder for `motif`: rewritten now, or the one an earlier run wrote.
// Returns "" when written, else why not.
std::string rewound_folder(const aoc::eval::Candidate& c, const std::string& motif, const fs::path& out,
                           std::string& diff) {
  if (fs::exists(out / "candidate.toml")) {
    diff = base::read_text(out / "rewind.diff");
    return "";
  }
  fs::remove_all(out);
  fs::create_directories(out.parent_path());
  const auto r = aoc::rewrite::rewrite_candidate(c, "remove", motif, out);
  if (!r.done) return r.refused.empty() ? "refused" : r.refused;
  diff = r.diff;
  std::ofstream(out / "rewind.diff") << r.diff;
  return "";
}

// The row of a removal the bank already holds (`e`): not evaluated or stored again.
void mark_from_bank(RewoundMotif& m, const aoc::bank::Entry& e) {
  m.status = e.kind;
  m.speedup = e.geomean;
  m.entry_id = e.id;
  m.from_bank = true;
}

// The model's removals of `c` (opt.llm): asked, evaluated together, stored like the rewriter's.
void add_llm_removals(RewindResult& out, const aoc::eval::Candidate& c,
                      const std::vector<aoc::rewrite::MotifState>& states, const aoc::eval::CandidateReport& optimized,
                      const std::vector<std::string>& named, const std::string& hh, aoc::build::Builder& builder,
                      aoc::bank::Bank& bank, const RewindOptions& opt, const aoc::eval::PoolOptions& pool) {
  auto removals = opt.llm->ask(c, optimized, states, named, opt.work_dir, hh);
  std::vector<fs::path> to_eval;
  for (const auto& r : removals)
    if (r.row.status.empty()) to_eval.push_back(r.candidate);
  std::vector<aoc::eval::CandidateReport> reports;
  if (!to_eval.empty()) reports = aoc::eval::evaluate_candidates(to_eval, builder, opt.eval, pool);
  size_t next = 0;
  for (auto& r : removals) {
    if (r.row.status.empty()) {
      const auto& rep = reports.at(next++);
      if (rep.verdict != aoc::eval::Verdict::Ok) {
        r.row.status = "failed";
        r.row.reason = std::string(aoc::eval::to_string(rep.verdict)) + ": " + rep.message;
      } else {
        aoc::bank::Entry e = make_entry(c, r.label, optimized, rep, r.diff, opt, r.what);
        e.provenance.update(r.provenance);
        store_entry(r.row, e, bank);
      }
    }
    out.motifs.push_back(std::move(r.row));
  }
}

// A removal made on the kernel without another motif (RewoundMotif::after).
struct PairRemoval {
  size_t row = 0;                   // in RewindResult::motifs
  size_t first_report = 0;          // the kernel without the first motif, in the evaluation order
  size_t report = 0;                // the kernel without both
  aoc::eval::Candidate first;       // the kernel without the first motif
  aoc::rewrite::MotifState state;   // the refused motif, as the detector found it in the kernel
  std::string diff;                 // the second removal's
};

// The first motif of `states` (present, other than the refused one) whose removal lets the
// rewriter remove `refused` from the result: its row (folders written) and the pair, or nothing.
std::optional<std::pair<RewoundMotif, PairRemoval>> pair_removal(const aoc::eval::Candidate& c,
                                                                const std::vector<aoc::rewrite::MotifState>& states,
                                                                const aoc::rewrite::MotifState& refused,
                                                                const std::string& stem, const std::string& hh) {
  for (const auto& first : states) {
    if (first.state != aoc::rewrite::State::Present || first.motif == refused.motif) continue;
    RewoundMotif m;
    m.motif = refused.motif;
    m.after = first.motif;
    m.dir = fs::path(stem + first.motif + "-then-" + refused.motif);
    PairRemoval p;
    p.state = refused;
    try {
      std::string first_diff;
      if (!rewound_folder(c, first.motif, stem + first.motif, first_diff).empty()) continue;
      p.first = aoc::eval::load_candidate(stem + first.motif, hh);
      if (!rewound_folder(p.first, refused.motif, m.dir, p.diff).empty()) continue;
    } catch (const std::exception&) {
      continue;  // that order does not work: try the next motif first
    }
    return std::make_pair(std::move(m), std::move(p));
  }
  return std::nullopt;
}

}  // namespace

RewindResult rewind_kernel(const fs::path& kernel_dir, aoc::build::Builder& builder, aoc::bank::Bank& bank,
                           const RewindOptions& opt) {
  const auto start = std::chrono::steady_clock::now();
  RewindResult out;
  out.kernel_dir = kernel_dir.string();
  auto finish = [&]() -> RewindResult& {
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
  };
  auto log = [&](const std::string& s) {
    if (opt.log) opt.log(s);
  };
  aoc::eval::Candidate c;
  std::vector<aoc::rewrite::MotifState> states, present;
  std::string hh;
  try {
    hh = header_hash(builder);
    c = aoc::eval::load_candidate(kernel_dir, hh);
    out.op = c.package.name;
    out.category = c.package.category;
    out.kernel_hash = c.hash;
    states = aoc::rewrite::detect_motifs(c);
    for (const auto& s : states)
      if (s.state == aoc::rewrite::State::Present && (opt.only_motifs.empty() || std::find(opt.only_motifs.begin(), opt.only_motifs.end(),
                                                                         s.motif) != opt.only_motifs.end()))
        present.push_back(s);
  } catch (const std::exception& e) {
    out.failure = e.what();
    return finish();
  }
  log(out.op + ": " + std::to_string(present.size()) + " motifs present in " + out.kernel_dir);

  std::vector<fs::path> to_eval = {kernel_dir};
  std::vector<size_t> eval_index;  // report index per present motif (0: not evaluated)
  std::vector<std::string> diffs(present.size());
  const std::vector<aoc::bank::Entry> existing = bank.entries();
  // <work>/<op>-<hash>-remove-<motif>, and -remove-<first>-then-<motif> for a pair.
  const std::string stem = (opt.work_dir / (out.op + "-" + c.hash.substr(0, 12) + "-remove-")).string();
  for (size_t i = 0; i < present.size(); ++i) {
    RewoundMotif m;
    m.motif = present[i].motif;
    m.dir = stem + m.motif;
    try {
      m.reason = rewound_folder(c, m.motif, m.dir, diffs[i]);
      if (!m.reason.empty()) m.status = "refused";
    } catch (const std::exception& e) {
      m.status = "failed";
      m.reason = e.what();
    }
    if (m.status.empty())
      if (const auto e = already_mined(existing, c.hash, m.motif, diffs[i], opt)) mark_from_bank(m, *e);
    eval_index.push_back(m.status.empty() ? to_eval.size() : 0);
    if (m.status.empty()) to_eval.push_back(m.dir);
    out.motifs.push_back(std::move(m));
  }
  std::vector<PairRemoval> pairs;
  const auto eval_slot = [&](const fs::path& d) {
    const auto it = std::find(to_eval.begin(), to_eval.end(), d);
    if (it != to_eval.end()) return size_t(it - to_eval.begin());
    to_eval.push_back(d);
    return to_eval.size() - 1;
  };
  for (size_t i = 0; i < present.size(); ++i) {
    if (out.motifs[i].status != "refused") continue;
    auto pair = pair_removal(c, states, present[i], stem, hh);
    if (!pair) continue;
    auto& [m, p] = *pair;
    if (const auto e = already_mined(existing, p.first.hash, m.motif, p.diff, opt)) {
      mark_from_bank(m, *e);
    } else {
      p.row = out.motifs.size();
      p.first_report = eval_slot(p.first.dir);
      p.report = eval_slot(m.dir);
      pairs.push_back(std::move(p));
    }
    out.motifs.push_back(std::move(m));
  }
  if (to_eval.size() == 1 && opt.llm == nullptr) return finish();  // nothing left to measure

  aoc::eval::CandidateEvalOptions eo = opt.eval;
  aoc::eval::PoolOptions pool;
  pool.jobs = opt.jobs;
  pool.store = eo.only_cases.empty() ? opt.store : nullptr;  // the store keeps full case sets only
  pool.on_done = [&](size_t done, size_t total, const aoc::eval::CandidateReport& r) {
    log("[" + std::to_string(done) + "/" + std::to_string(total) + "] " + std::string(aoc::eval::to_string(r.verdict)) + " " +
        r.candidate_dir);
  };
  const auto reports = aoc::eval::evaluate_candidates(to_eval, builder, eo, pool);
  const auto& optimized = reports.at(0);
  if (optimized.verdict != aoc::eval::Verdict::Ok) {
    out.failure = "the kernel itself is " + std::string(aoc::eval::to_string(optimized.verdict)) + ": " + optimized.message;
    for (auto& m : out.motifs)
      if (m.status.empty()) {
        m.status = "failed";
        m.reason = "not compared: the source kernel fails";
      }
    return finish();
  }
  std::vector<std::string> not_removed;  // present motifs the rewriter could not remove: the model is asked by name
  for (size_t i = 0; i < present.size(); ++i) {
    RewoundMotif& m = out.motifs[i];
    if (m.status.empty()) {
      const auto& r = reports.at(eval_index[i]);
      if (r.verdict != aoc::eval::Verdict::Ok) {
        m.status = "failed";
        m.reason = std::string(aoc::eval::to_string(r.verdict)) + ": " + r.message;
      } else {
        store_entry(m, make_entry(c, present[i], optimized, r, diffs[i], opt), bank);
      }
    }
    if (m.status == "refused" || m.status == "failed") not_removed.push_back(m.motif);
  }
  for (const auto& p : pairs) {
    RewoundMotif& m = out.motifs[p.row];
    const auto& base = reports.at(p.first_report);
    const auto& r = reports.at(p.report);
    const bool base_ok = base.verdict == aoc::eval::Verdict::Ok;
    if (!base_ok || r.verdict != aoc::eval::Verdict::Ok) {
      const auto& bad = base_ok ? r : base;
      m.status = "failed";
      m.reason = (base_ok ? std::string("the kernel without both") : "the kernel without " + m.after) + " is " +
                 std::string(aoc::eval::to_string(bad.verdict)) + ": " + bad.message;
      continue;
    }
    aoc::bank::Entry e = make_entry(p.first, p.state, base, r, p.diff, opt, m.motif + " (" + m.after + " removed first)");
    e.source_path = source_label(c.dir, opt.source_root) + " without " + m.after;
    e.provenance["removed_first"] = m.after;
    store_entry(m, e, bank);
  }
  if (opt.llm != nullptr) add_llm_removals(out, c, states, optimized, not_removed, hh, builder, bank, opt, pool);
  return finish();
}

RewindResult ablate_hunks(const fs::path& package_dir, aoc::build::Builder& builder, aoc::bank::Bank& bank,
                          const RewindOptions& opt) {
  const auto start = std::chrono::steady_clock::now();
  RewindResult out;
  out.kernel_dir = (package_dir / "expert").string();
  auto finish = [&]() -> RewindResult& {
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
  };
  if (!fs::is_directory(package_dir / "expert") || !fs::exists(package_dir / "op.toml")) {
    out.failure = package_dir.string() + " is not an operator package with an expert/ folder; hunk ablation compares "
                  "the two";
    return finish();
  }
  aoc::eval::Candidate c;
  std::vector<aoc::rewrite::MotifState> expert_states;
  std::vector<Hunk> hunks;
  std::string hh;
  try {
    hh = header_hash(builder);
    c = aoc::eval::load_candidate(package_dir / "expert", hh);
    out.op = c.package.name;
    out.category = c.package.category;
    out.kernel_hash = c.hash;
    expert_states = aoc::rewrite::detect_motifs(c);
    hunks = expert_hunks(package_dir);
  } catch (const std::exception& e) {
    out.failure = e.what();
    return finish();
  }
  const std::string prefix = out.op + "-" + c.hash.substr(0, 12) + "-hunk";
  // Each group tried is written once and its detector states kept: they classify the variant.
  struct Tried {
    std::string message;  // "" when it parses
    std::vector<aoc::rewrite::MotifState> states;
  };
  std::map<std::string, Tried> tried;
  const ParseCheck parse = [&](const std::vector<size_t>& members) {
    const std::string label = group_label(members);
    if (const auto it = tried.find(label); it != tried.end()) return it->second.message;
    Tried t;
    const fs::path dir = opt.work_dir / (prefix + label);
    try {
      if (!fs::exists(dir / "candidate.toml")) {
        fs::remove_all(dir);
        std::vector<Hunk> group;
        for (size_t i : members) group.push_back(hunks.at(i));
        write_reverted(package_dir, group, dir);
      }
      t.states = aoc::rewrite::detect_motifs(aoc::eval::load_candidate(dir, hh));
    } catch (const std::exception& e) {
      t.message = e.what();
    }
    return tried.emplace(label, std::move(t)).first->second.message;
  };
  const auto where = [&](size_t i) { return hunks[i].file + ":" + std::to_string(hunks[i].exp_start); };

  std::vector<fs::path> to_eval = {package_dir / "expert"};
  std::vector<aoc::rewrite::MotifState> labels;
  std::vector<std::string> whats;
  std::vector<std::vector<size_t>> variants;  // the hunks each row reverts
  for (size_t i = 0; i < hunks.size(); ++i) {
    const HunkGroup g = group_of(i, hunks, parse);
    const std::string label = group_label(g.members);
    if (g.failure.empty() && std::find(variants.begin(), variants.end(), g.members) != variants.end())
      continue;  // the group of an earlier hunk
    RewoundMotif m;
    m.source = "hunk";
    m.dir = opt.work_dir / (prefix + label);
    std::string what = "hunk " + std::to_string(i) + " (" + where(i) + ")";
    if (g.members.size() > 1) {
      what = "hunks " + label + " (";
      for (size_t k = 0; k < g.members.size(); ++k) what += (k ? ", " : "") + where(g.members[k]);
      what += ")";
    }
    aoc::rewrite::MotifState label_state = unclassified();
    if (!g.failure.empty()) {
      m.status = "failed";
      m.reason = g.members.size() == 1 ? what + ": " + g.failure
                                       : "hunk " + std::to_string(i) + " (" + where(i) + ") does not parse reverted alone, "
                                         "nor with the hunks its errors name (" + label + "): " + g.failure;
    } else {
      label_state = removed_motif(expert_states, tried.at(label).states);
      to_eval.push_back(m.dir);
    }
    m.motif = label_state.motif;
    whats.push_back(what);
    labels.push_back(label_state);
    variants.push_back(g.members);
    out.motifs.push_back(m);
  }
  aoc::eval::PoolOptions pool;
  pool.jobs = opt.jobs;
  pool.store = opt.eval.only_cases.empty() ? opt.store : nullptr;
  const auto reports = aoc::eval::evaluate_candidates(to_eval, builder, opt.eval, pool);
  if (reports.at(0).verdict != aoc::eval::Verdict::Ok) {
    out.failure = "the expert itself is " + std::string(aoc::eval::to_string(reports[0].verdict)) + ": " +
                  reports[0].message;
    return finish();
  }
  size_t next = 1;
  for (size_t i = 0; i < out.motifs.size(); ++i) {
    RewoundMotif& m = out.motifs[i];
    if (!m.status.empty()) continue;
    const auto& r = reports.at(next++);
    if (r.verdict != aoc::eval::Verdict::Ok) {
      m.status = "failed";
      m.reason = whats[i] + ": " + std::string(aoc::eval::to_string(r.verdict)) + ": " + r.message;
      continue;
    }
    std::vector<std::string> files;
    for (size_t h : variants[i])
      if (std::find(files.begin(), files.end(), hunks[h].file) == files.end()) files.push_back(hunks[h].file);
    std::string diff;
    for (const auto& f : files)
      diff += aoc::base::run_process({"diff", "-u", "--label", "a/" + f, "--label", "b/" + f,
                                      (package_dir / "expert" / f).string(), (m.dir / f).string()})
                  .output;
    aoc::bank::Entry e = make_entry(c, labels[i], reports[0], r, diff, opt, whats[i]);
    e.provenance["ablation"] = whats[i];
    store_entry(m, e, bank);
    if (m.entry_id) m.reason = whats[i];
  }
  return finish();
}

nlohmann::json to_json(const RewindResult& r) {
  nlohmann::json motifs = nlohmann::json::array();
  for (const auto& m : r.motifs) {
    nlohmann::json j = {{"motif", m.motif}, {"source", m.source}, {"status", m.status}, {"dir", m.dir.string()}};
    if (!m.reason.empty()) j["reason"] = m.reason;
    if (!m.after.empty()) j["after"] = m.after;
    if (m.source == "llm") {
      j["target"] = m.target;
      j["removed"] = m.removed;
    }
    j["speedup"] = m.speedup ? nlohmann::json(*m.speedup) : nlohmann::json(nullptr);
    j["entry_id"] = m.entry_id ? nlohmann::json(*m.entry_id) : nlohmann::json(nullptr);
    if (m.from_bank) j["from_bank"] = true;
    motifs.push_back(j);
  }
  nlohmann::json j = {{"kernel_dir", r.kernel_dir}, {"op", r.op},         {"category", r.category},
                      {"kernel_hash", r.kernel_hash}, {"motifs", motifs}, {"seconds", r.seconds}};
  if (!r.failure.empty()) j["failure"] = r.failure;
  return j;
}

RewindResult result_from_json(const nlohmann::json& j) {
  RewindResult r;
  r.kernel_dir = j.at("kernel_dir").get<std::string>();
  r.op = j.at("op").get<std::string>();
  r.category = j.at("category").get<std::string>();
  r.kernel_hash = j.at("kernel_hash").get<std::string>();
  r.seconds = j.at("seconds").get<double>();
  r.failure = j.value("failure", "");
  for (const auto& m : j.at("motifs")) {
    RewoundMotif x;
    x.motif = m.at("motif").get<std::string>();
    x.source = m.at("source").get<std::string>();
    x.status = m.at("status").get<std::string>();
    x.dir = m.at("dir").get<std::string>();
    x.reason = m.value("reason", "");
    x.after = m.value("after", "");
    x.target = m.value("target", "");
    x.removed = m.value("removed", "");
    if (!m.at("speedup").is_null()) x.speedup = m.at("speedup").get<double>();
    if (!m.at("entry_id").is_null()) x.entry_id = m.at("entry_id").get<int64_t>();
    x.from_bank = m.value("from_bank", false);
    r.motifs.push_back(std::move(x));
  }
  return r;
}

}  // namespace aoc::rewind
