#include "eval/evaluator.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>

#include "ops/golden.h"
#include "ops/kernel_library.h"
#include "ops/rng.h"
#include "sim/soc.h"

namespace aoc::eval {

bool OpReport::passed() const {
  if (!build_failures.empty() || !setup_error.empty() || cases.empty()) return false;
  return std::all_of(cases.begin(), cases.end(), [](const auto& c) { return c.verdict == aoc::op::Verdict::Pass; });
}

size_t OpReport::count(aoc::op::Verdict v) const {
  return static_cast<size_t>(std::count_if(cases.begin(), cases.end(), [&](const auto& c) { return c.verdict == v; }));
}

uint64_t fresh_seed() {
  const auto now = static_cast<uint64_t>(std::chrono::high_resolution_clock::now().time_since_epoch().count());
  return aoc::op::mix_seed(now, static_cast<uint64_t>(::getpid()));
}

OpReport evaluate_package(const aoc::op::OpPackage& p, Builder& builder, const EvalOptions& opt) {
  OpReport rep;
  rep.op = p.name;
  rep.dir = p.dir.string();
  rep.seed = opt.seed;
  rep.soc = opt.soc;

  std::vector<size_t> selected;
  for (size_t i = 0; i < p.cases.size(); ++i)
    if (opt.only_cases.empty() ||
        std::find(opt.only_cases.begin(), opt.only_cases.end(), p.cases[i].name) != opt.only_cases.end())
      selected.push_back(i);
  if (selected.empty()) {
    rep.setup_error = "no case of " + p.name + " matches the requested names";
    return rep;
  }

  std::unique_ptr<aoc::sim::Soc> soc;
  aoc::op::CaseOptions copt;
  copt.seed = opt.seed;
  copt.platform = aoc::host::current_platform();
  if (!opt.soc.empty()) {
    try {
      soc = std::make_unique<aoc::sim::Soc>(aoc::sim::load_soc(opt.soc));
      copt.soc = soc.get();
      copt.platform = aoc::op::platform_for(*soc);
    } catch (const std::exception& e) {
      rep.setup_error = e.what();
      return rep;
    }
  }

  auto build = [&](const BuildRequest& req) -> std::optional<std::filesystem::path> {
    BuildResult r = builder.build(req);
    ++rep.builds;
    if (r.cache_hit) ++rep.build_cache_hits;
    if (!r.ok) {
      rep.build_failures.push_back(BuildIssue{req.label, std::move(r)});
      return std::nullopt;
    }
    return r.library;
  };

  const auto root = builder.options().root;
  auto golden_so = build(golden_build_request(p, root));
  auto golden_sp_so = build(golden_build_request(p, root, true));
  const SourceDirs dirs = opt.sources ? *opt.sources : SourceDirs::of(p);
  std::map<size_t, std::filesystem::path> kernel_sos;
  for (size_t i : selected) {
    const size_t v = p.cases[i].variant;
    if (kernel_sos.count(v)) continue;
    if (auto so = build(kernel_build_request(p, v, dirs, root))) kernel_sos[v] = *so;
  }
  if (!golden_so || !golden_sp_so || !rep.build_failures.empty()) return rep;

  aoc::op::GoldenLibrary golden, golden_sp;
  try {
    golden = aoc::op::GoldenLibrary::open(*golden_so);
    golden_sp = aoc::op::GoldenLibrary::open(*golden_sp_so);
  } catch (const std::exception& e) {
    rep.setup_error = e.what();
    return rep;
  }
  // Cases grouped by variant so each kernel library is loaded once; results are
  // reported in the package's case order.
  std::map<size_t, aoc::op::CaseOutcome> outcomes;
  for (const auto& [v, so] : kernel_sos) {
    aoc::op::KernelLibrary lib;
    try {
      lib = aoc::op::KernelLibrary::open(so, p.kernel, p.op_type);
    } catch (const std::exception& e) {
      rep.setup_error = e.what();
      return rep;
    }
    for (size_t i : selected) {
      if (p.cases[i].variant != v) continue;
      copt.chrome_trace_path = p.cases[i].name == opt.chrome_trace_case ? opt.chrome_trace_path : "";
      copt.on_traces = nullptr;
      if (opt.on_traces)
        copt.on_traces = [&, name = p.cases[i].name](const std::vector<aoc::rt::CoreRun>& cores) { opt.on_traces(name, cores); };
      try {
        outcomes[i] = aoc::op::run_case(p, i, lib, {&golden, &golden_sp}, copt);
      } catch (const std::exception& e) {  // e.g. InferShape refusing a generated case
        aoc::op::CaseOutcome& o = outcomes[i];
        o.name = p.cases[i].name;
        o.dtype = p.variant_label(v);
        o.verdict = aoc::op::Verdict::Error;
        o.message = e.what();
      }
    }
  }
  for (size_t i : selected) rep.cases.push_back(std::move(outcomes[i]));
  return rep;
}

}  // namespace aoc::eval
