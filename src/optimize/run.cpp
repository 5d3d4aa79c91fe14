#include "optimize/run.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "base/process.h"
#include "build/header_hash.h"
#include "llm/chat_client.h"
#include "llm/proposer.h"
#include "optimize/llm_proposer.h"
#include "optimize/motif_proposer.h"
#include "package/case_gen.h"
#include "rewrite/pin_config.h"
#include "search/case_scoring.h"
#include "runtime/platform.h"
#include "sim/soc.h"
#include "tune/tuner.h"

namespace aoc::optimize {
namespace fs = std::filesystem;

namespace {

// The slowest evaluation case of a variant: its bound pipe and pipe times.
const aoc::search::CaseTiming* slowest(const search::Scored& s) {
  const aoc::search::CaseTiming* w = nullptr;
  for (const auto& c : s.eval.cases)
    if (!w || c.sim_us > w->sim_us) w = &c;
  return w;
}

std::map<std::string, double> pipe_times(const aoc::search::CaseTiming* c) {
  std::map<std::string, double> out;
  if (!c) return out;
  for (const auto& [k, v] : c->profile)
    if (k.size() > 5 && k.compare(k.size() - 5, 5, "_time") == 0 && k != "aiv_time" && k != "aic_time") out[k] = v;
  return out;
}

std::vector<LineageStep> lineage_of(const std::vector<search::ScoredPtr>& history, const search::ScoredPtr& best) {
  std::vector<LineageStep> steps;
  for (search::ScoredPtr s = best; s && s->parent; s = history[*s->parent]) {
    const search::ScoredPtr p = history[*s->parent];
    LineageStep st;
    st.index = s->index;
    st.origin = s->origin;
    st.before_us = p->eval.time_us;
    st.after_us = s->eval.time_us;
    const auto* cb = slowest(*p);
    const auto* ca = slowest(*s);
    st.bound_before = cb ? cb->bound_pipe : "";
    st.bound_after = ca ? ca->bound_pipe : "";
    st.profile_before = pipe_times(cb);
    st.profile_after = pipe_times(ca);
    steps.push_back(std::move(st));
  }
  std::reverse(steps.begin(), steps.end());
  return steps;
}

std::string diff_trees(const fs::path& a, const fs::path& b, const std::string& label) {
  return aoc::base::run_process({"diff", "-ruN", "--label", "a/" + label, "--label", "b/" + label, a.string(), b.string()})
      .output;
}

void copy_tree(const fs::path& from, const fs::path& to) {
  fs::create_directories(to);
  fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
}

// best/: the winning kernel as a candidate folder of the package with its tiling configuration
// written into its sources (a drop-in operator: plain `eval`, `run` and a device build give the
// reported time), tuning.json beside them as the record. A configuration the rewriter cannot
// write stays only in tuning.json, and the report says why.
void write_best(OptimizeReport& r, const fs::path& out, bool coupled) {
  const fs::path best = out / "best";
  fs::remove_all(best);
  const auto& cand = r.best->variant.kernel->cand;
  copy_tree(cand.sources.host, best / "op_host");
  copy_tree(cand.sources.kernel, best / "op_kernel");
  const auto pin = aoc::rewrite::pin_configuration(cand, {best / "op_host", best / "op_kernel"}, r.best->variant.config,
                                                   coupled);
  r.config_in_sources = pin.pinned;
  r.config_pinning = pin.message;
  const fs::path pkg = fs::absolute(r.package_dir).lexically_normal();
  std::ofstream(best / "candidate.toml")
      << "# the best variant of ascendopt optimize (docs/optimize.md); its tiling configuration ("
      << search::config_text(r.best->variant.config) << ") is "
      << (pin.pinned ? "written into its sources" : "NOT in its sources: only ascendopt applies tuning.json") << "\npackage = \""
      << pkg.lexically_relative(fs::absolute(best)).string() << "\"\n";
  std::ofstream(best / "tuning.json") << aoc::eval::to_json(r.best->variant.config).dump(2) << "\n";
}

}  // namespace

double geomean_speedup(const std::vector<PerfCaseTimes>& cases) {
  if (cases.empty()) return 1.0;
  double log_sum = 0;
  for (const auto& c : cases) log_sum += std::log(c.speedup());
  return std::exp(log_sum / static_cast<double>(cases.size()));
}

std::vector<double> OptimizeReport::progress_curve() const {
  std::vector<double> curve;
  double best = baseline_us;
  for (const auto& s : history) {
    if (s->eval.valid && s->eval.time_us < best) best = s->eval.time_us;
    curve.resize(s->spent, baseline_us / best);
  }
  curve.resize(budget, curve.empty() ? 1.0 : curve.back());
  return curve;
}

OptimizeReport optimize(const fs::path& op_dir, aoc::build::Builder& builder, const OptimizeOptions& opt) {
  const auto t0 = std::chrono::steady_clock::now();
  if (opt.budget == 0) throw OptimizeError("the budget must be at least 1 evaluation (the baseline is the first)");
  if (opt.soc.empty()) throw OptimizeError("optimizing needs a SoC model for timing (--soc)");
  if (opt.out_dir.empty()) throw OptimizeError("no run folder given (--out)");
  const std::string header_hash = aoc::build::ascendc_header_hash(builder.options().root);
  auto original = std::make_shared<search::Kernel>();
  try {
    original->cand = aoc::eval::load_candidate(op_dir, header_hash);
  } catch (const std::exception& e) {
    throw OptimizeError(e.what());
  }
  const auto& pkg = original->cand.package;
  OptimizeReport r;
  r.op = pkg.name;
  r.package_dir = pkg.dir.string();
  r.soc = opt.soc;
  r.method = opt.method;
  r.bank = opt.bank_file.string();
  r.budget = opt.budget;
  r.seed = opt.seed;
  r.cases = opt.cases.empty() ? aoc::tune::default_tuning_cases(pkg, opt.max_case_elements) : opt.cases;
  for (const auto& name : r.cases)
    if (std::none_of(pkg.cases.begin(), pkg.cases.end(), [&](const auto& c) { return c.name == name; }))
      throw OptimizeError("operator " + pkg.name + " has no public case named " + name);
  if (r.cases.empty()) throw OptimizeError("operator " + pkg.name + " has no public cases to evaluate on");
  aoc::host::PlatformConfig platform;
  try {
    platform = aoc::runtime::platform_from_soc(aoc::sim::load_soc(opt.soc));
  } catch (const std::exception& e) {
    throw OptimizeError(e.what());
  }
  std::unique_ptr<aoc::eval::ResultStore> store;
  if (!opt.store_file.empty()) {
    try {
      store = std::make_unique<aoc::eval::ResultStore>(opt.store_file);
    } catch (const std::exception& e) {
      throw OptimizeError(e.what());
    }
  }
  fs::create_directories(opt.out_dir / "kernels");

  // The LLM client first: wrong settings are an error before any evaluation.
  std::unique_ptr<aoc::llm::ChatClient> client;
  if (opt.llm) {
    try {
      client = std::make_unique<aoc::llm::ChatClient>(*opt.llm, aoc::llm::ApiKey::from_environment(opt.llm->api_key_env));
    } catch (const aoc::llm::LlmError& e) {
      throw OptimizeError(std::string("LLM settings: ") + e.what());
    }
  }

  search::CaseScoringOptions so{opt.eval, r.cases};
  so.eval.soc = opt.soc;
  so.eval.seed = opt.seed;
  search::CaseScoring scoring(builder, so, store.get());
  search::Evaluator ev(scoring, opt.budget);
  if (opt.progress) ev.on_evaluation = [&](const search::Scored& s) { opt.progress(s, opt.budget); };
  const search::ScoredPtr base = ev.evaluate(search::Variant{original, {}}, "baseline", std::nullopt);
  if (!base->eval.valid)
    throw OptimizeError("the operator's own kernel fails on the evaluation cases (" + base->eval.reason +
                        "); nothing can be optimized against a baseline that fails. Run `ascendopt eval " +
                        op_dir.string() + "` to see every case, fix the package, then optimize");
  r.baseline_us = base->eval.time_us;

  search::ConfigProposer config(platform);
  std::unique_ptr<MotifChooser> chooser;
  BankMotifChooser* bank_chooser = nullptr;  // also ranks the entries the LLM's guided prompts show
  if (opt.bank_file.empty()) {
    chooser = std::make_unique<RandomMotifChooser>();
  } else {
    try {
      auto bank = std::make_unique<BankMotifChooser>(opt.bank_file);
      bank_chooser = bank.get();
      chooser = std::move(bank);
    } catch (const std::exception& e) {
      throw OptimizeError(e.what());
    }
  }
  MotifProposer motif(opt.out_dir / "kernels", header_hash, std::move(chooser));
  search::SearchContext ctx{ev, config, motif, base, opt.seed, opt.log, {}};
  std::unique_ptr<aoc::llm::LlmProposer> llm_asker;
  std::unique_ptr<LlmKernelProposer> llm;
  if (client) {
    llm_asker = std::make_unique<aoc::llm::LlmProposer>(*client);
    llm = std::make_unique<LlmKernelProposer>(*llm_asker, ev, opt.out_dir / "kernels", header_hash, opt.seed);
    if (bank_chooser != nullptr)
      llm->use_bank([bank_chooser, &motif](const search::Scored& p) -> std::vector<aoc::bank::Ranked> {
        if (!p.variant.kernel) return {};
        return bank_chooser->rank(p, motif.applicable(*p.variant.kernel));
      });
    if (!opt.method->uses_model)
      r.notes.push_back("the LLM settings are not used by --method " + opt.method->name + " (it proposes no kernels)");
    else ctx.llm = llm.get();
  }
  try {
    opt.method->run(ctx);
  } catch (const std::invalid_argument& e) {  // a knob declaration the space cannot hold
    throw OptimizeError(e.what());
  } catch (const aoc::llm::LlmError& e) {  // settings, a replay without a recorded answer, the cache
    throw OptimizeError(std::string("LLM: ") + e.what());
  }
  r.history = ev.history();
  r.episodes = ctx.episodes;
  r.notes.insert(r.notes.end(), motif.notes().begin(), motif.notes().end());
  if (llm) {
    r.notes.insert(r.notes.end(), llm->notes().begin(), llm->notes().end());
    const auto& c = llm->counts();
    r.llm = LlmRunInfo{aoc::llm::to_json(*opt.llm), client->totals(), c.asked, c.loaded, c.applied, c.unusable,
                       c.endpoint_errors};
  }
  r.fresh_runs = ev.fresh_runs();
  r.same_tiling = ev.same_tiling();
  for (const auto& s : r.history) r.recalled += s->from_store ? 1 : 0;

  // Verification: fastest first, only variants faster than the baseline, then the baseline. A
  // variant evaluated while a faster one was the best had no reason to have its tiling tried
  // on the other public cases; one that fails there is passed over without a verification.
  std::vector<search::ScoredPtr> faster;
  for (const auto& s : r.history)
    if (s->eval.valid && s->eval.time_us < r.baseline_us) faster.push_back(s);
  std::stable_sort(faster.begin(), faster.end(), [](const search::ScoredPtr& a, const search::ScoredPtr& b) {
    return a->eval.time_us < b->eval.time_us;
  });
  std::vector<search::ScoredPtr> order;
  for (const auto& s : faster) {
    if (order.size() == opt.verify_candidates) break;
    if (const auto failure = scoring.tiling_failure_elsewhere(s->variant))
      r.rejected.push_back("#" + std::to_string(s->index) + " (" + s->origin + "): " + failure->reason);
    else
      order.push_back(s);
  }
  order.push_back(base);
  uint64_t hidden_seed = 0;
  try {
    hidden_seed = aoc::package::hidden_seed_from_environment();
  } catch (const std::exception& e) {
    throw OptimizeError(e.what());
  }
  r.hidden_seed = hidden_seed;
  // The speed a user gets is the package's over every performance case, not only over the
  // evaluation cases the search was timed on: the best's is reported beside the search's.
  std::vector<std::string> perf;
  for (const auto& c : pkg.cases)
    if (c.perf) perf.push_back(c.name);
  for (const auto& s : order) {
    const search::Verification v = scoring.verify(s->variant, hidden_seed);
    if (!v.passed) {
      r.rejected.push_back("#" + std::to_string(s->index) + " (" + s->origin + "): " + v.message);
      r.verification = v.message;
      continue;
    }
    // Measured once: the loop ends at the first verified variant.
    const auto bt = s == base ? std::optional(v.public_us) : scoring.public_times(base->variant, hidden_seed);
    std::vector<PerfCaseTimes> times;
    if (bt)
      for (const auto& name : perf)
        if (bt->count(name) && v.public_us.count(name)) times.push_back({name, bt->at(name), v.public_us.at(name)});
    r.best = s;
    r.verified = true;
    r.verification = "passed every public case and a hidden draw of " + std::to_string(search::kHiddenCount) +
                     " generated cases";
    r.perf_cases = std::move(times);
    break;
  }
  if (!r.best) r.best = base;
  r.best_us = r.best->eval.time_us;
  r.lineage = lineage_of(r.history, r.best);

  write_best(r, opt.out_dir, !platform.separated);
  const auto& from = original->cand.sources;
  r.diff = diff_trees(from.host, opt.out_dir / "best" / "op_host", "op_host") +
           diff_trees(from.kernel, opt.out_dir / "best" / "op_kernel", "op_kernel");
  if (!r.config_in_sources) r.diff += "tiling configuration (tuning.json only): " + search::config_text(r.best->variant.config) + "\n";
  std::ofstream(opt.out_dir / "best.diff") << r.diff;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::ofstream(opt.out_dir / "report.json") << to_json(r).dump(2) << "\n";
  std::ofstream(opt.out_dir / "summary.txt") << summary_text(r);
  return r;
}

nlohmann::json to_json(const OptimizeReport& r) {
  nlohmann::json j = {{"op", r.op},
                      {"package", r.package_dir},
                      {"soc", r.soc},
                      {"method", r.method->name},
                      {"motif_order", r.bank.empty() ? std::string("random") : "bank " + r.bank},
                      {"budget", r.budget},
                      {"seed", r.seed},
                      {"cases", r.cases},
                      {"baseline_us", r.baseline_us},
                      {"best_us", r.best_us},
                      {"speedup", r.speedup()},
                      {"perf_speedup", r.perf_cases.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.perf_speedup())},
                      {"evaluations", r.history.empty() ? 0 : r.history.back()->spent},
                      {"fresh_evaluations", r.fresh_runs},
                      {"recalled_from_store", r.recalled},
                      {"same_tiling", r.same_tiling},
                      {"verified", r.verified},
                      {"verification", r.verification},
                      {"rejected", r.rejected},
                      {"hidden_seed", r.hidden_seed ? nlohmann::json(*r.hidden_seed) : nlohmann::json(nullptr)},
                      {"episodes", r.episodes},
                      {"notes", r.notes},
                      {"progress", r.progress_curve()},
                      {"diff", r.diff},
                      {"seconds", r.seconds}};
  if (r.llm)
    j["llm"] = {{"settings", r.llm->settings},
                {"usage", r.llm->usage.to_json()},
                {"proposals",
                 {{"asked", r.llm->asked},
                  {"loaded_from_run_folder", r.llm->loaded},
                  {"applied", r.llm->applied},
                  {"unusable", r.llm->unusable},
                  {"endpoint_errors", r.llm->endpoint_errors}}}};
  if (!r.history.empty()) {
    j["baseline_t_hw_us"] = r.history.front()->t_hw_us;
    const auto* c = slowest(*r.history.front());
    j["baseline_pipes"] = pipe_times(c);
    if (c) j["baseline_slowest_case_us"] = c->sim_us;
  }
  if (r.best) {
    j["best_t_hw_us"] = r.best->t_hw_us;
    const auto* c = slowest(*r.best);
    j["best_pipes"] = pipe_times(c);
    if (c) j["best_slowest_case_us"] = c->sim_us;
  }
  if (r.best)
    j["best"] = {{"index", r.best->index},
                 {"origin", r.best->origin},
                 {"motifs", r.best->variant.kernel->motifs},
                 {"config", aoc::eval::to_json(r.best->variant.config)},
                 {"config_in_sources", r.config_in_sources},
                 {"config_pinning", r.config_pinning},
                 {"kernel_dir", r.best->variant.kernel->cand.dir.string()}};
  j["perf_cases"] = nlohmann::json::array();
  for (const auto& c : r.perf_cases)
    j["perf_cases"].push_back(
        {{"case", c.name}, {"baseline_us", c.baseline_us}, {"best_us", c.best_us}, {"speedup", c.speedup()}});
  j["history"] = nlohmann::json::array();
  for (const auto& s : r.history)
    j["history"].push_back({{"index", s->index},
                            {"spent", s->spent},
                            {"origin", s->origin},
                            {"parent", s->parent ? nlohmann::json(*s->parent) : nlohmann::json(nullptr)},
                            {"verdict", s->verdict},
                            {"valid", s->eval.valid},
                            {"time_us", s->eval.time_us},
                            {"reason", s->eval.reason},
                            {"config", search::config_text(s->variant.config)},
                            {"motifs", s->variant.kernel->motifs},
                            {"from_store", s->from_store}});
  j["lineage"] = nlohmann::json::array();
  for (const auto& st : r.lineage)
    j["lineage"].push_back({{"index", st.index},
                            {"origin", st.origin},
                            {"before_us", st.before_us},
                            {"after_us", st.after_us},
                            {"gain", st.after_us > 0 ? st.before_us / st.after_us : 1.0},
                            {"bound_before", st.bound_before},
                            {"bound_after", st.bound_after},
                            {"profile_before", st.profile_before},
                            {"profile_after", st.profile_after}});
  return j;
}

std::string summary_text(const OptimizeReport& r) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(2);
  os << r.op << " on " << r.soc << ": " << r.method->name << ", budget " << r.budget << ", seed " << r.seed << "\n";
  os << "evaluation cases (geomean of simulated Task Duration):";
  for (const auto& c : r.cases) os << " " << c;
  os << "\n";
  size_t invalid = 0;
  for (const auto& s : r.history) invalid += s->eval.valid ? 0 : 1;
  os << "evaluations:    " << (r.history.empty() ? 0 : r.history.back()->spent) << " of " << r.budget << " ("
     << invalid << " failed; " << r.recalled << " recalled from the result store; " << r.same_tiling
     << " configuration(s) with an evaluated one's tiling, not charged)\n";
  for (const auto& e : r.episodes) os << "  " << e << "\n";
  os << "baseline time:  " << r.baseline_us << " us\n";
  os << "best time:      " << r.best_us << " us\n";
  os << "speedup:        " << std::setprecision(3) << r.speedup() << "x on the evaluation cases";
  if (!r.perf_cases.empty()) {
    double lo = INFINITY, hi = 0;
    for (const auto& c : r.perf_cases) {
      lo = std::min(lo, c.speedup());
      hi = std::max(hi, c.speedup());
    }
    os << ", " << r.perf_speedup() << "x over every performance case (" << r.perf_cases.size() << " case(s), " << lo
       << "x to " << hi << "x; perf_cases in report.json)";
  }
  os << "\n";
  os << std::setprecision(2);
  if (r.best) {
    os << "best:           #" << r.best->index << " " << r.best->origin << "\n";
    os << "  motifs:       ";
    if (r.best->variant.kernel->motifs.empty()) os << "(none: the original kernel)";
    for (const auto& m : r.best->variant.kernel->motifs) os << m << " ";
    os << "\n  config:       " << search::config_text(r.best->variant.config) << "\n";
    os << "  in best/:     " << (r.config_in_sources ? "" : "configuration NOT written into the sources: ") << r.config_pinning
       << "\n";
  }
  if (!r.lineage.empty()) os << "lineage (accepted steps from the baseline):\n";
  for (const auto& st : r.lineage)
    os << "  #" << st.index << " " << st.origin << ": " << st.before_us << " -> " << st.after_us << " us (bound "
       << st.bound_before << " -> " << st.bound_after << ")\n";
  for (const auto& x : r.rejected) os << "rejected in verification: " << x << "\n";
  if (r.verified)
    os << "verified:       " << r.verification << " (seed " << r.hidden_seed.value_or(0)
       << "; ASCENDOPT_HIDDEN_SEED repeats it)\n";
  else
    os << "NOT verified:   " << r.verification << "\n";
  if (r.llm)
    os << r.llm->usage.summary_line() << "\nllm proposals: " << r.llm->asked << " asked, " << r.llm->loaded
       << " loaded from the run folder; " << r.llm->applied << " applied, " << r.llm->unusable << " not applicable, "
       << r.llm->endpoint_errors << " without an answer\n";
  for (const auto& n : r.notes) os << "note: " << n << "\n";
  return os.str();
}

}  // namespace aoc::optimize
