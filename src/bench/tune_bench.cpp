#include "bench/tune_bench.h"

#include <chrono>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "build/header_hash.h"
#include "runtime/platform.h"

namespace aoc::bench {
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

TuneBenchOp bench_one(const fs::path& dir, build::Builder& builder, const TuneBenchOptions& o, const std::string& header_hash) {
  TuneBenchOp b;
  b.op = dir.filename().string();
  eval::Candidate cand;
  try {
    cand = eval::load_candidate(dir, header_hash);
  } catch (const std::exception& e) {
    b.error = e.what();
    return b;
  }
  b.op = cand.package.name;
  eval::CandidateEvalOptions eo = o.tune.eval;
  eo.soc = o.tune.soc;
  eo.seed = o.tune.search.seed;
  const std::vector<std::string> cases = tune::default_tuning_cases(cand.package, o.tune.max_case_elements);
  search::GatedScoring scoring = tune::tuning_scoring(cand, builder, eo, cases, o.verify);
  const auto kernel = std::make_shared<const search::Kernel>(search::Kernel{cand, {}, {}});
  const search::Evaluation base = scoring.screen(search::Variant{kernel, {}});
  if (!base.valid) {
    b.error = "baseline invalid: " + base.reason;
    return b;
  }
  b.baseline_us = base.time_us;
  search::Space space;
  try {
    space = search::make_space(base.knobs, runtime::platform_from_soc(sim::load_soc(o.tune.soc)), base.platform_reads);
  } catch (const std::exception& e) {
    b.error = e.what();
    return b;
  }
  b.dims = space.dims.size();
  b.space_size = space.size();
  size_t max_budget = 0;
  for (size_t n : o.budgets) max_budget = std::max(max_budget, n);
  for (search::HostMethod m : o.methods) {
    search::SearchOptions so = o.tune.search;
    so.method = m;
    so.budget = max_budget;
    so.max_free = search::kMaxFreePerEvaluation * so.budget;
    // Each method searches on its own (its budget, its best); the scoring keeps what ran.
    search::Evaluator ev(scoring, so.budget);
    tune::TuneReport r;
    r.space = space;
    r.baseline_us = base.time_us;
    r.search = search::run_search(space, search::through_evaluator(ev, space, kernel, std::string("tune-bench (") + to_string(m) + ")"),
                                  so, {space.defaults()});
    const search::SearchResult all = r.search;
    for (size_t n : o.budgets) {
      r.search.history.assign(all.history.begin(), all.history.begin() + static_cast<long>(all.entries_within(n)));
      size_t inv = 0;
      for (const auto& e : r.search.history) inv += e.valid ? 0 : 1;
      // With verification, a configuration faster than every earlier valid one passed the full
      // gate before it counted as valid (eval/cascade.h), so the fastest valid one within n is
      // the verified best of budget n; nothing faster than the baseline leaves speedup 1.
      const auto best = r.search.best_within(n);
      b.speedup[to_string(m)][n] = best ? std::max(1.0, base.time_us / r.search.history[*best].time_us) : 1.0;
      b.invalid[to_string(m)][n] = inv;
    }
    if (o.log) {
      std::ostringstream os;
      os << b.op << " " << to_string(m) << ":";
      for (size_t n : o.budgets) os << " " << n << "->" << std::fixed << std::setprecision(3) << b.speedup[to_string(m)][n];
      o.log(os.str());
    }
  }
  b.configurations_run = scoring.runs();
  b.seconds_per_evaluation = scoring.runs() ? scoring.seconds() / static_cast<double>(scoring.runs()) : 0;
  return b;
}

}  // namespace

double TuneBenchReport::geomean(const std::string& method, size_t budget) const {
  double s = 0;
  size_t n = 0;
  for (const auto& op : ops) {
    if (!op.error.empty()) continue;
    const double v = method == "baseline" ? 1.0 : op.speedup.at(method).at(budget);
    s += std::log(v);
    ++n;
  }
  return n ? std::exp(s / static_cast<double>(n)) : 0;
}

double TuneBenchReport::fast(const std::string& method, size_t budget, double p) const {
  size_t hit = 0, n = 0;
  for (const auto& op : ops) {
    if (!op.error.empty()) continue;
    const double v = method == "baseline" ? 1.0 : op.speedup.at(method).at(budget);
    hit += v > p ? 1 : 0;
    ++n;
  }
  return n ? static_cast<double>(hit) / static_cast<double>(n) : 0;
}

TuneBenchReport run_tune_bench(const std::vector<fs::path>& op_dirs, build::Builder& builder, const TuneBenchOptions& o) {
  const auto t0 = Clock::now();
  TuneBenchReport r;
  r.options = o;
  const std::string header_hash = build::ascendc_header_hash(builder.options().root);
  for (const auto& d : op_dirs) {
    r.ops.push_back(bench_one(d, builder, o, header_hash));
    if (o.log && !r.ops.back().error.empty()) o.log(r.ops.back().op + ": skipped: " + r.ops.back().error);
  }
  r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return r;
}

nlohmann::json to_json(const TuneBenchReport& r) {
  nlohmann::json j = {{"soc", r.options.tune.soc}, {"seed", r.options.tune.search.seed}, {"seconds", r.seconds},
                      {"verified", r.options.verify}, {"max_case_elements", r.options.tune.max_case_elements}};
  j["budgets"] = r.options.budgets;
  j["ops"] = nlohmann::json::array();
  for (const auto& op : r.ops) {
    nlohmann::json o = {{"op", op.op}, {"error", op.error}, {"baseline_us", op.baseline_us}, {"dims", op.dims},
                        {"space_size", op.space_size}, {"configurations_run", op.configurations_run},
                        {"seconds_per_evaluation", op.seconds_per_evaluation}};
    for (const auto& [m, per] : op.speedup)
      for (const auto& [n, v] : per) {
        o["speedup"][m][std::to_string(n)] = v;
        o["invalid"][m][std::to_string(n)] = op.invalid.at(m).at(n);
      }
    j["ops"].push_back(o);
  }
  std::vector<std::string> methods = {"baseline"};
  for (search::HostMethod m : r.options.methods) methods.push_back(to_string(m));
  for (const auto& m : methods)
    for (size_t n : r.options.budgets) {
      nlohmann::json s = {{"method", m}, {"budget", n}, {"geomean_speedup", r.geomean(m, n)}};
      for (double p : r.options.fast_p) {
        std::ostringstream k;
        k << "fast_" << p;
        s[k.str()] = r.fast(m, n, p);
      }
      j["summary"].push_back(s);
    }
  return j;
}

TuneBenchReport tune_bench_from_json(const nlohmann::json& j) {
  try {
    TuneBenchReport r;
    r.options.tune.soc = j.at("soc").get<std::string>();
    r.options.tune.search.seed = j.at("seed").get<uint64_t>();
    r.options.verify = j.at("verified").get<bool>();
    r.options.tune.max_case_elements = j.at("max_case_elements").get<int64_t>();
    r.options.budgets = j.at("budgets").get<std::vector<size_t>>();
    r.seconds = j.at("seconds").get<double>();
    for (const auto& o : j.at("ops")) {
      TuneBenchOp b;
      b.op = o.at("op").get<std::string>();
      b.error = o.at("error").get<std::string>();
      b.baseline_us = o.at("baseline_us").get<double>();
      b.dims = o.at("dims").get<size_t>();
      b.space_size = o.at("space_size").get<uint64_t>();
      b.configurations_run = o.at("configurations_run").get<size_t>();
      b.seconds_per_evaluation = o.at("seconds_per_evaluation").get<double>();
      if (o.contains("speedup"))
        for (const auto& [m, per] : o.at("speedup").items())
          for (const auto& [n, v] : per.items()) {
            b.speedup[m][std::stoul(n)] = v.get<double>();
            b.invalid[m][std::stoul(n)] = o.at("invalid").at(m).at(n).get<size_t>();
          }
      r.ops.push_back(std::move(b));
    }
    return r;
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("not a tune-bench JSON report: ") + e.what());
  }
}

std::string tune_bench_table(const TuneBenchReport& r) {
  std::ostringstream os;
  size_t ok = 0;
  for (const auto& op : r.ops) ok += op.error.empty() ? 1 : 0;
  os << "operators benchmarked: " << ok << " of " << r.ops.size() << " (SoC " << r.options.tune.soc << ", seed "
     << r.options.tune.search.seed << ", " << std::fixed << std::setprecision(0) << r.seconds
     << " s of runs, summed when merged)\n";
  os << (r.options.verify ? "speedups of the best configuration that passed every public case and a hidden draw\n"
                          : "speedups on the tuning cases, NOT verified on the other cases (--no-verify)\n");
  os << std::left << std::setw(10) << "method" << std::setw(8) << "budget" << std::right << std::setw(10) << "geomean";
  for (double p : r.options.fast_p) {
    std::ostringstream k;
    k << "fast_" << p;
    os << std::setw(11) << k.str();
  }
  os << "\n";
  std::vector<std::string> methods = {"baseline"};
  for (search::HostMethod m : r.options.methods) methods.push_back(to_string(m));
  for (const auto& m : methods)
    for (size_t n : r.options.budgets) {
      os << std::left << std::setw(10) << m << std::setw(8) << n << std::right << std::setw(10) << std::setprecision(3)
         << r.geomean(m, n);
      for (double p : r.options.fast_p) os << std::setw(11) << std::setprecision(2) << r.fast(m, n, p);
      os << "\n";
    }
  os << "\nper operator (" << (r.options.verify ? "verified " : "tuning-case ")
     << "speedup over the baseline; evolve/random at each budget):\n";
  for (const auto& op : r.ops) {
    os << "  " << std::left << std::setw(22) << op.op;
    if (!op.error.empty()) {
      os << "skipped: " << op.error << "\n";
      continue;
    }
    os << std::right << std::setw(10) << std::setprecision(2) << op.baseline_us << " us  " << op.dims << " dims";
    for (size_t n : r.options.budgets) {
      os << "  " << n << ":";
      for (search::HostMethod m : r.options.methods) os << " " << std::setprecision(3) << op.speedup.at(to_string(m)).at(n);
    }
    os << "  (" << op.configurations_run << " configs, " << std::setprecision(1) << op.seconds_per_evaluation
       << " s each)\n";
  }
  return os.str();
}

}  // namespace aoc::bench
