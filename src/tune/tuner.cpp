#include "tune/tuner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <optional>

#include "base/rng.h"
#include "build/header_hash.h"
#include "package/case_gen.h"
#include "package/case_inputs.h"
#include "runtime/platform.h"

namespace aoc::tune {
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

uint64_t input_elements(const aoc::package::OpPackage& p, const aoc::package::CaseSpec& c) {
  return static_cast<uint64_t>(aoc::package::case_input_elements(p, c));
}

bool has_perf_cases(const aoc::package::OpPackage& p) {
  return std::any_of(p.cases.begin(), p.cases.end(), [](const auto& c) { return c.perf; });
}

// The package's performance cases with at most `max_elements` input elements (every one when
// 0), or the smallest of them when none is that small: the speed a package is judged by is the
// geomean over its performance cases, so a search must be scored on them.
std::vector<std::string> perf_tuning_cases(const aoc::package::OpPackage& p, int64_t max_elements) {
  std::vector<std::string> out;
  std::optional<size_t> smallest;
  for (size_t i = 0; i < p.cases.size(); ++i) {
    const auto& c = p.cases[i];
    if (!c.perf) continue;
    if (max_elements <= 0 || input_elements(p, c) <= uint64_t(max_elements)) out.push_back(c.name);
    if (!smallest || input_elements(p, c) < input_elements(p, p.cases[*smallest])) smallest = i;
  }
  if (out.empty() && smallest) out.push_back(p.cases[*smallest].name);
  return out;
}

// Innermost bytes of the case's first input: a UB budget or tile cap that holds the largest
// cases can be too small for long rows.
int64_t row_bytes(const aoc::package::OpPackage& p, const aoc::package::CaseSpec& c) {
  const auto& shape = c.shapes.at(p.inputs.front().name);
  return (shape.empty() ? 1 : shape.back()) * static_cast<int64_t>(aoc::package::info(p.inputs.front().dtypes[c.variant]).bytes);
}

// The first case with the longest rows among those `keep` accepts (by index).
template <typename Keep> std::optional<size_t> longest_rows(const aoc::package::OpPackage& p, Keep keep) {
  std::optional<size_t> longest;
  for (size_t i = 0; i < p.cases.size(); ++i)
    if (keep(i) && (!longest || row_bytes(p, p.cases[i]) > row_bytes(p, p.cases[*longest]))) longest = i;
  return longest;
}

// For a package without performance cases: per variant the largest case that fits under
// `max_elements`, else the smallest one; plus the fitting case with the longest rows when the
// largest ones have shorter rows, since a configuration tuned without them fails verification there.
std::vector<std::string> largest_tuning_cases(const aoc::package::OpPackage& p, int64_t max_elements) {
  const auto fits = [&](size_t i) { return max_elements <= 0 || input_elements(p, p.cases[i]) <= uint64_t(max_elements); };
  std::map<size_t, size_t> pick;
  for (size_t i = 0; i < p.cases.size(); ++i) {
    const size_t v = p.cases[i].variant;
    const auto it = pick.find(v);
    if (it == pick.end()) {
      pick[v] = i;
      continue;
    }
    const size_t j = it->second;
    const uint64_t ni = input_elements(p, p.cases[i]), nj = input_elements(p, p.cases[j]);
    if (fits(i) && (!fits(j) || ni > nj)) it->second = i;
    else if (!fits(i) && !fits(j) && ni < nj) it->second = i;
  }
  const std::optional<size_t> longest = longest_rows(p, fits);
  std::vector<std::string> out;
  int64_t picked_row = 0;
  for (const auto& [v, i] : pick) {
    out.push_back(p.cases[i].name);
    picked_row = std::max(picked_row, row_bytes(p, p.cases[i]));
  }
  if (longest && row_bytes(p, p.cases[*longest]) > picked_row) out.push_back(p.cases[*longest].name);
  return out;
}

}  // namespace

std::vector<std::string> default_tuning_cases(const aoc::package::OpPackage& p, int64_t max_elements) {
  return has_perf_cases(p) ? perf_tuning_cases(p, max_elements) : largest_tuning_cases(p, max_elements);
}

std::vector<std::string> tuning_probe_cases(const aoc::package::OpPackage& p, const std::vector<std::string>& timing_cases) {
  std::vector<std::string> out = eval::default_probe_cases(p, timing_cases);
  const std::optional<size_t> longest = longest_rows(p, [&](size_t i) { return !p.cases[i].perf; });
  if (!longest) return out;
  const std::string& name = p.cases[*longest].name;
  if (std::find(timing_cases.begin(), timing_cases.end(), name) == timing_cases.end() &&
      std::find(out.begin(), out.end(), name) == out.end())
    out.push_back(name);
  return out;
}

RepoKey repository_key(const aoc::package::OpPackage& p, const std::vector<std::string>& cases, const std::string& soc,
                       int64_t max_elements) {
  RepoKey k;
  k.op = p.name;
  k.soc = soc;
  // The shape class names the tuning cases: the default set is "largest of each dtype",
  // a hand-picked set is named by its cases.
  if (cases == default_tuning_cases(p, max_elements)) {
    const std::string rule = has_perf_cases(p) ? "perf-cases" : "largest-per-dtype";
    k.shape_class = max_elements > 0 ? rule + "-upto-" + std::to_string(max_elements) : rule;
  } else {
    for (const auto& c : cases) k.shape_class += (k.shape_class.empty() ? "" : "+") + c;
  }
  std::vector<std::string> dtypes;
  for (const auto& name : cases)
    for (const auto& c : p.cases)
      if (c.name == name) dtypes.push_back(p.variant_label(c.variant));
  std::sort(dtypes.begin(), dtypes.end());
  dtypes.erase(std::unique(dtypes.begin(), dtypes.end()), dtypes.end());
  for (const auto& d : dtypes) k.dtype += (k.dtype.empty() ? "" : "+") + d;
  return k;
}

search::GatedScoring tuning_scoring(const eval::Candidate& cand, build::Builder& builder, eval::CandidateEvalOptions opt,
                                    const std::vector<std::string>& tuning_cases, bool gate) {
  return search::GatedScoring(builder, std::move(opt), tuning_cases, tuning_probe_cases(cand.package, tuning_cases), gate);
}

namespace {

// After a search through the gated scoring: the verified best (the fastest valid evaluation,
// which passed the gate; the baseline, verified, when no configuration did) and the
// configurations the gate rejected.
void take_verified_best(TuneReport& r, search::GatedScoring& scoring, const search::KernelPtr& kernel) {
  r.rejected.clear();
  for (const auto& e : r.search.history)
    if (!e.valid && e.reason.starts_with(eval::kGateFailed))
      r.rejected.push_back(e.key + ": " + e.reason.substr(eval::kGateFailed.size()));
  if (r.search.best) {
    const search::Evaluation& best = r.search.history[*r.search.best];
    r.best = r.space.config(best.point);
    r.best_us = best.time_us;
    r.best_key = best.key;
    r.verification = search::Verification{true, ""};
    return;
  }
  // Nothing passed the gate, the baseline included: the baseline is reported with its failure.
  r.best = {};
  r.best_us = r.baseline_us;
  r.best_key = r.space.key(r.space.defaults());
  r.verification = scoring.verify(search::Variant{kernel, {}});
}

}  // namespace

TuneReport tune(const fs::path& op_dir, build::Builder& builder, const TuneOptions& opt) {
  const auto t0 = Clock::now();
  const std::string header_hash = build::ascendc_header_hash(builder.options().root);
  eval::Candidate cand;
  try {
    cand = eval::load_candidate(op_dir, header_hash);
  } catch (const std::exception& e) {
    throw TuneError(e.what());
  }
  const aoc::package::OpPackage& p = cand.package;
  TuneReport r;
  r.op = p.name;
  r.package_dir = p.dir.string();
  r.candidate_hash = cand.hash;
  r.soc = opt.soc;
  r.method = opt.search.method;
  r.budget = opt.search.budget;
  r.seed = opt.search.seed;
  if (opt.soc.empty()) throw TuneError("tuning needs a SoC model for timing (--soc)");
  r.tuning_cases = opt.tuning_cases.empty() ? default_tuning_cases(p, opt.max_case_elements) : opt.tuning_cases;
  for (const auto& name : r.tuning_cases)
    if (std::none_of(p.cases.begin(), p.cases.end(), [&](const auto& c) { return c.name == name; }))
      throw TuneError("operator " + p.name + " has no case named " + name);
  if (r.tuning_cases.empty()) throw TuneError("operator " + p.name + " has no public cases to tune on");
  r.tuning_cases_are_perf = std::all_of(r.tuning_cases.begin(), r.tuning_cases.end(), [&](const std::string& name) {
    return std::any_of(p.cases.begin(), p.cases.end(), [&](const auto& c) { return c.name == name && c.perf; });
  });
  r.repo_key = repository_key(p, r.tuning_cases, opt.soc, opt.max_case_elements);

  eval::CandidateEvalOptions eo = opt.eval;
  eo.soc = opt.soc;
  eo.seed = opt.search.seed;
  search::GatedScoring scoring = tuning_scoring(cand, builder, eo, r.tuning_cases);
  const auto kernel = std::make_shared<const search::Kernel>(search::Kernel{cand, {}, {}});
  const search::Evaluation base = scoring.screen(search::Variant{kernel, {}});
  if (!base.valid) throw TuneError("the operator's own configuration fails on the tuning cases: " + base.reason);
  r.baseline_us = base.time_us;

  host::PlatformConfig platform;
  try {
    platform = runtime::platform_from_soc(sim::load_soc(opt.soc));
    r.space = search::make_space(base.knobs, platform, base.platform_reads);
  } catch (const std::exception& e) {
    throw TuneError(e.what());
  }

  std::vector<search::Point> seeds = {r.space.defaults()};
  const fs::path repo_file =
      opt.repository_file.empty() ? builder.options().cache_dir / "tune" / "repository.json" : opt.repository_file;
  Repository repo(repo_file);
  if (opt.use_repository) {
    r.repository_start = repo.lookup(r.repo_key);
    if (r.repository_start) seeds.push_back(r.space.repair(r.repository_start->config));
  }

  search::SearchOptions so = opt.search;
  so.max_free = search::kMaxFreePerEvaluation * so.budget;
  search::Evaluator ev(scoring, so.budget);
  const std::string origin = std::string("tune (") + to_string(so.method) + ")";
  r.search = search::run_search(r.space, search::through_evaluator(ev, r.space, kernel, origin), so, seeds, opt.progress);
  take_verified_best(r, scoring, kernel);
  r.hidden_seed = scoring.hidden_seed();
  r.gates = scoring.gates();

  if (opt.use_repository && r.verification.passed && !r.best.empty() && r.best_us < r.baseline_us) {
    RepoEntry e{r.best, r.best_us, r.baseline_us, r.candidate_hash, to_string(r.method),
               r.search.charged_count()};
    try {
      r.repository_updated = repo.store(r.repo_key, e);
    } catch (const std::exception& ex) {
      throw TuneError(ex.what());
    }
  }
  r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  r.seconds_per_evaluation = scoring.runs() ? scoring.seconds() / static_cast<double>(scoring.runs()) : 0;
  return r;
}

}  // namespace aoc::tune
