#include "bank/guided.h"

#include <chrono>
#include <cmath>
#include <fstream>

#include "bank/target.h"
#include "build/header_hash.h"
#include "eval/eval_pool.h"
#include "rewrite/motif_states.h"
#include "rewrite/rewrite_candidate.h"

namespace aoc::bank {
namespace fs = std::filesystem;

double geomean_ratio(const aoc::eval::CandidateReport& a, const aoc::eval::CandidateReport& b) {
  double log_sum = 0;
  size_t n = 0;
  for (const auto& ca : a.cases) {
    if (!ca.sim_us || *ca.sim_us <= 0) continue;
    for (const auto& cb : b.cases)
      if (cb.name == ca.name && cb.sim_us && *cb.sim_us > 0) {
        log_sum += std::log(*ca.sim_us / *cb.sim_us);
        ++n;
      }
  }
  return n ? std::exp(log_sum / double(n)) : 0;
}

namespace {

std::string header_hash(aoc::build::Builder& builder) { return aoc::build::ascendc_header_hash(builder.options().root); }

// Writes `from` with `motif` applied to `out` (or reuses a folder an earlier run wrote).
// Returns "" when the folder is there, else why not.
std::string apply_into(const aoc::eval::Candidate& from, const std::string& motif, const fs::path& out) {
  if (fs::exists(out / "candidate.toml")) return "";
  fs::remove_all(out);
  fs::create_directories(out.parent_path());
  try {
    const auto r = aoc::rewrite::rewrite_candidate(from, "apply", motif, out);
    if (!r.done) return r.refused.empty() ? "refused" : r.refused;
    std::ofstream(out / "guided.diff") << r.diff;
    return "";
  } catch (const std::exception& e) {
    return e.what();
  }
}

}  // namespace

GuidedResult guided_rewrite(const fs::path& target_dir, aoc::build::Builder& builder, Bank& bank,
                            const GuidedOptions& opt) {
  const auto start = std::chrono::steady_clock::now();
  auto log = [&](const std::string& s) {
    if (opt.log) opt.log(s);
  };
  const std::string hh = header_hash(builder);
  const aoc::eval::Candidate target = aoc::eval::load_candidate(target_dir, hh);
  const auto states = aoc::rewrite::detect_motifs(target);
  aoc::eval::PoolOptions pool;
  pool.jobs = opt.jobs;
  pool.store = opt.eval.only_cases.empty() ? opt.store : nullptr;
  pool.on_done = [&](size_t done, size_t total, const aoc::eval::CandidateReport& r) {
    log("[" + std::to_string(done) + "/" + std::to_string(total) + "] " + std::string(aoc::eval::to_string(r.verdict)) +
        " " + r.candidate_dir);
  };
  const auto base = aoc::eval::evaluate_candidates({target_dir}, builder, opt.eval, pool).at(0);

  GuidedResult out;
  out.target = make_target(target, states, &base);
  out.ranking = rank_entries(bank.entries(), out.target, [&](const std::string& m) { return bank.stats(m); });
  if (base.verdict != aoc::eval::Verdict::Ok) {
    out.target_failure = std::string(aoc::eval::to_string(base.verdict)) + ": " + base.message;
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
  }
  auto motifs = applicable_motifs(out.ranking, out.target);
  if (motifs.size() > opt.k) motifs.resize(opt.k);
  const std::string prefix = target.package.name + "-" + target.hash.substr(0, 12) + "-guided-";

  // Singles first, evaluated together.
  std::vector<fs::path> dirs;
  std::vector<size_t> idx;
  for (const auto& [motif, entry] : motifs) {
    GuidedTry t;
    t.motifs = {motif};
    t.entry_id = entry;
    t.dir = opt.out_dir / (prefix + motif);
    t.reason = apply_into(target, motif, t.dir);
    if (!t.reason.empty()) t.status = "refused";
    idx.push_back(t.status.empty() ? dirs.size() : SIZE_MAX);
    if (t.status.empty()) dirs.push_back(t.dir);
    out.tries.push_back(t);
  }
  auto judge = [&](std::vector<GuidedTry>& tries, const std::vector<size_t>& at,
                   const std::vector<aoc::eval::CandidateReport>& reports) {
    for (size_t i = 0; i < tries.size(); ++i) {
      GuidedTry& t = tries[i];
      if (at[i] == SIZE_MAX) continue;
      const auto& r = reports.at(at[i]);
      if (r.verdict != aoc::eval::Verdict::Ok) {
        t.status = "failed";
        t.reason = std::string(aoc::eval::to_string(r.verdict)) + ": " + r.message;
      } else {
        t.status = "ok";
        t.speedup = geomean_ratio(base, r);
        t.helped = *t.speedup > 1.0;
      }
      std::string name;
      for (const auto& m : t.motifs) name += (name.empty() ? "" : "+") + m;
      bank.record({t.motifs.size() == 1 ? t.entry_id : std::nullopt, name, target.hash, target.package.name, t.helped,
                   t.speedup.value_or(0)});
    }
  };
  judge(out.tries, idx, aoc::eval::evaluate_candidates(dirs, builder, opt.eval, pool));

  // Then pairs of motifs that passed alone: the second applied to the first's folder.
  std::vector<GuidedTry> pairs;
  std::vector<size_t> pidx;
  dirs.clear();
  std::vector<const GuidedTry*> good;
  for (const auto& t : out.tries)
    if (t.status == "ok" && good.size() < opt.pair_of) good.push_back(&t);
  for (size_t i = 0; i < good.size(); ++i)
    for (size_t j = i + 1; j < good.size(); ++j) {
      GuidedTry t;
      t.motifs = {good[i]->motifs[0], good[j]->motifs[0]};
      t.dir = opt.out_dir / (prefix + t.motifs[0] + "+" + t.motifs[1]);
      try {
        const auto first = aoc::eval::load_candidate(good[i]->dir, hh);
        t.reason = apply_into(first, t.motifs[1], t.dir);
      } catch (const std::exception& e) {
        t.reason = e.what();
      }
      if (!t.reason.empty()) t.status = "refused";
      pidx.push_back(t.status.empty() ? dirs.size() : SIZE_MAX);
      if (t.status.empty()) dirs.push_back(t.dir);
      pairs.push_back(t);
    }
  if (!pairs.empty()) judge(pairs, pidx, aoc::eval::evaluate_candidates(dirs, builder, opt.eval, pool));
  out.tries.insert(out.tries.end(), pairs.begin(), pairs.end());
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

nlohmann::json to_json(const GuidedResult& r, size_t show_ranked) {
  nlohmann::json ranked = nlohmann::json::array();
  for (size_t i = 0; i < r.ranking.size() && i < show_ranked; ++i) ranked.push_back(to_json(r.ranking[i]));
  nlohmann::json tries = nlohmann::json::array();
  for (const auto& t : r.tries) {
    nlohmann::json j = {{"motifs", t.motifs}, {"dir", t.dir.string()}, {"status", t.status}, {"helped", t.helped}};
    j["speedup"] = t.speedup ? nlohmann::json(*t.speedup) : nlohmann::json(nullptr);
    j["entry_id"] = t.entry_id ? nlohmann::json(*t.entry_id) : nlohmann::json(nullptr);
    if (!t.reason.empty()) j["reason"] = t.reason;
    tries.push_back(j);
  }
  nlohmann::json j = {{"op", r.target.op}, {"dir", r.target.dir}, {"ranking", ranked}, {"tries", tries},
                      {"seconds", r.seconds}};
  if (!r.target_failure.empty()) j["target_failure"] = r.target_failure;
  return j;
}

}  // namespace aoc::bank
