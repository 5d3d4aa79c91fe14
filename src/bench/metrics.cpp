#include "bench/metrics.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <sstream>

namespace aoc::bench {
namespace fs = std::filesystem;

namespace {

double geomean(const std::vector<double>& v) {
  if (v.empty()) return 1.0;
  double s = 0;
  for (double x : v) s += std::log(x);
  return std::exp(s / static_cast<double>(v.size()));
}

}  // namespace

RunResult load_run(const BenchOptions& o, const BenchRun& r) {
  RunResult out;
  out.run = r;
  std::ifstream in(run_dir(o, r) / "report.json");
  if (!in) return out;
  try {
    out.report = nlohmann::json::parse(in);
  } catch (const std::exception&) {
    return out;
  }
  out.reported = true;
  out.verified = out.report.value("verified", false);
  const double sp = out.report.value("speedup", 1.0);
  out.speedup = out.verified ? std::max(1.0, sp) : 1.0;
  const double t_hw = out.report.value("best_t_hw_us", 0.0);
  if (t_hw > 0) out.t_hw_ratio = out.report.value("best_us", 0.0) / t_hw;
  out.progress = out.report.value("progress", std::vector<double>{});
  return out;
}

BenchSummary summarize_bench(const BenchOptions& o, const std::vector<BenchRun>& runs) {
  BenchSummary s;
  s.methods = o.methods;
  s.budgets = o.budgets;
  s.seeds = o.seeds;
  for (const auto& d : o.ops) s.ops.push_back(d.filename().string());
  for (const auto& r : runs) s.results.push_back(load_run(o, r));
  const size_t largest = *std::max_element(o.budgets.begin(), o.budgets.end());
  for (const auto& m : o.methods)
    for (size_t b : o.budgets) {
      MethodFigures f;
      f.method = m;
      f.budget = b;
      std::vector<double> all, correct, thw;
      std::map<uint64_t, std::vector<double>> by_seed;
      std::vector<std::vector<double>> curves;
      for (const auto& r : s.results) {
        if (r.run.method != m || r.run.budget != b) continue;
        ++f.runs;
        f.verified += r.verified ? 1 : 0;
        all.push_back(r.speedup);
        by_seed[r.run.seed].push_back(r.speedup);
        if (r.verified && r.speedup > 1.0) correct.push_back(r.speedup);
        if (r.t_hw_ratio > 0) thw.push_back(r.t_hw_ratio);
        if (!r.progress.empty()) curves.push_back(r.progress);
        if (r.report.contains("llm")) {
          const nlohmann::json u = r.report["llm"].value("usage", nlohmann::json::object());
          ++f.llm_runs;
          f.llm_requests += u.value("requests", int64_t{0});
          f.llm_cache_hits += u.value("cache_hits", int64_t{0});
          f.llm_prompt_tokens += u.value("prompt_tokens", int64_t{0});
          f.llm_completion_tokens += u.value("completion_tokens", int64_t{0});
          f.llm_cost += u.value("cost", 0.0);
        }
      }
      f.geomean = geomean(all);
      f.geomean_correct = geomean(correct);
      f.seed_min = INFINITY;
      f.seed_max = 0;
      for (const auto& [seed, v] : by_seed) {
        f.seed_min = std::min(f.seed_min, geomean(v));
        f.seed_max = std::max(f.seed_max, geomean(v));
      }
      if (by_seed.empty()) f.seed_min = f.seed_max = 1.0;
      for (double p : kFastP) {
        size_t n = 0;
        for (const auto& r : s.results)
          if (r.run.method == m && r.run.budget == b && r.verified && r.speedup > p) ++n;
        f.fast_p.push_back(f.runs ? static_cast<double>(n) / static_cast<double>(f.runs) : 0.0);
      }
      f.t_hw_ratio = thw.empty() ? 0 : geomean(thw);
      for (size_t i = 0; i < b; ++i) {
        std::vector<double> at;
        for (const auto& c : curves) at.push_back(i < c.size() ? c[i] : (c.empty() ? 1.0 : c.back()));
        f.progress.push_back(geomean(at));
      }
      s.figures.push_back(std::move(f));
    }
  for (const auto& r : s.results) {
    if (r.run.budget != largest) continue;
    s.per_op[r.run.op][r.run.method] += r.speedup / static_cast<double>(o.seeds);
  }
  return s;
}

std::string bench_table(const BenchSummary& s) {
  std::ostringstream os;
  // Columns as wide as the longest method name ("rewrite-only@bank"), at least 14.
  int mw = 14;
  for (const auto& m : s.methods) mw = std::max(mw, static_cast<int>(m.size()) + 2);
  os << std::fixed << std::setprecision(3);
  os << "geomean speedup over the baseline (a failed or unverified run counts 1.0), " << s.ops.size()
     << " operator(s) x " << s.seeds << " seed(s)\n";
  os << std::left << std::setw(mw) << "method" << std::right << std::setw(7) << "budget" << std::setw(9) << "geomean"
     << std::setw(17) << "seed range" << std::setw(13) << "correct-only";
  for (double p : kFastP) os << std::setw(8) << ("f" + [&] {
                              std::ostringstream t;
                              t << p;
                              return t.str();
                            }());
  os << std::setw(9) << "/T_HW" << std::setw(10) << "verified\n";
  for (const auto& f : s.figures) {
    os << std::left << std::setw(mw) << f.method << std::right << std::setw(7) << f.budget << std::setw(9)
       << f.geomean << std::setw(8) << f.seed_min << " - " << f.seed_max << std::setw(13) << f.geomean_correct;
    for (double v : f.fast_p) os << std::setw(8) << v;
    os << std::setw(9) << f.t_hw_ratio << std::setw(6) << f.verified << "/" << f.runs << "\n";
  }
  if (std::any_of(s.figures.begin(), s.figures.end(), [](const MethodFigures& f) { return f.llm_runs > 0; })) {
    os << "\nLLM use, summed over the runs:\n";
    for (const auto& f : s.figures) {
      if (!f.llm_runs) continue;
      os << std::left << std::setw(mw) << f.method << std::right << std::setw(7) << f.budget << "  " << f.llm_requests
         << " request(s), " << f.llm_cache_hits << " from the cache, " << f.llm_prompt_tokens << " prompt + "
         << f.llm_completion_tokens << " completion tokens, cost " << std::setprecision(4) << f.llm_cost
         << std::setprecision(3) << "\n";
    }
  }
  if (!s.budgets.empty()) {
    os << "\nper operator, mean speedup over seeds at budget " << *std::max_element(s.budgets.begin(), s.budgets.end())
       << ":\n" << std::left << std::setw(22) << "operator" << std::right;
    for (const auto& m : s.methods) os << std::setw(mw) << m;
    os << "\n";
    for (const auto& [op, by] : s.per_op) {
      os << std::left << std::setw(22) << op << std::right;
      for (const auto& m : s.methods) os << std::setw(mw) << (by.count(m) ? by.at(m) : 1.0);
      os << "\n";
    }
  }
  return os.str();
}

nlohmann::json to_json(const BenchSummary& s) {
  nlohmann::json j = {{"ops", s.ops}, {"methods", s.methods}, {"budgets", s.budgets}, {"seeds", s.seeds},
                      {"fast_p", kFastP}, {"per_op", s.per_op}};
  j["figures"] = nlohmann::json::array();
  for (const auto& f : s.figures) {
    j["figures"].push_back({{"method", f.method},
                            {"budget", f.budget},
                            {"runs", f.runs},
                            {"verified", f.verified},
                            {"geomean", f.geomean},
                            {"geomean_correct_only", f.geomean_correct},
                            {"seed_geomean_min", f.seed_min},
                            {"seed_geomean_max", f.seed_max},
                            {"fast_p", f.fast_p},
                            {"t_hw_ratio", f.t_hw_ratio},
                            {"progress", f.progress}});
    if (f.llm_runs)
      j["figures"].back()["llm"] = {{"runs", f.llm_runs},
                                    {"requests", f.llm_requests},
                                    {"cache_hits", f.llm_cache_hits},
                                    {"prompt_tokens", f.llm_prompt_tokens},
                                    {"completion_tokens", f.llm_completion_tokens},
                                    {"cost", f.llm_cost}};
  }
  j["runs"] = nlohmann::json::array();
  for (const auto& r : s.results)
    j["runs"].push_back({{"name", r.run.name()},
                         {"reported", r.reported},
                         {"verified", r.verified},
                         {"speedup", r.speedup},
                         {"t_hw_ratio", r.t_hw_ratio}});
  return j;
}

}  // namespace aoc::bench
