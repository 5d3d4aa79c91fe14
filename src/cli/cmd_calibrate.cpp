// `ascendopt calibrate`: builds the calibration kernels (calibration/), runs them as `ascendopt
// eval` runs any candidate (eval/candidate_eval.h: the kernel in the sandboxed harness, the
// golden in a contained child) on the SoC model, and prints simulated against measured Task
// Duration and per-pipe times (data/calibration), with the relative errors and whether the
// targets hold.
// With --traces DIR the per-core instruction traces of each case are kept in DIR and later
// runs only re-time them, so refitting a SoC file takes seconds instead of re-running kernels.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <unistd.h>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "eval/eval_pool.h"
#include "eval/harness_protocol.h"
#include "package/op_package.h"
#include "runtime/block_traces.h"
#include "sim/calibrate.h"
#include "sim/cost_model.h"
#include "sim/engine.h"
#include "sim/profile.h"
#include "sim/sensitivity.h"
#include "sim/soc.h"

namespace aoc::cli {
namespace {

constexpr double kCaseWallSeconds = 1800;

struct CalibrateArgs {
  std::string soc;  // empty: each case on the SoC it was measured on
  std::vector<std::string> only;
  std::string cache_dir;
  std::string traces_dir;
  bool json = false;
  bool sensitivity = false;
  bool full_sim = false;
};

// How traces are timed: no spans (nothing here draws them); steady-state skipping unless
// --full-sim asks for every instruction.
aoc::sim::EngineOptions engine_options(const CalibrateArgs& a) {
  aoc::sim::EngineOptions eo;
  eo.record_spans = false;
  eo.steady_state = !a.full_sim;
  return eo;
}

// The SoC a case runs on: --soc when given, else the one it was measured on.
std::string soc_of(const aoc::sim::CalibrationPoint& pt, const CalibrateArgs& a) { return a.soc.empty() ? pt.soc : a.soc; }

std::filesystem::path trace_path(const CalibrateArgs& a, const aoc::sim::CalibrationPoint& pt) {
  return std::filesystem::path(a.traces_dir) / (pt.package.filename().string() + "." + pt.case_name + ".trace");
}

// Times recorded traces on the SoC: the timing phase alone.
aoc::sim::CalibrationResult retime(const aoc::sim::CalibrationPoint& pt, const std::filesystem::path& file,
                                   const CalibrateArgs& a) {
  aoc::sim::CalibrationResult failed;
  failed.point = pt;
  try {
    const aoc::eval::TraceSet set = aoc::eval::read_traces(file);
    const std::vector<aoc::sim::BlockTrace> blocks = aoc::runtime::block_traces(set.cores);
    const aoc::sim::Soc soc = aoc::sim::load_soc(soc_of(pt, a));
    const aoc::sim::SimResult sim = aoc::sim::simulate(soc, blocks, engine_options(a));
    return aoc::sim::compare_to_measurement(pt, sim.task_duration_us, aoc::sim::make_profile(soc, sim).fields);
  } catch (const std::exception& e) {
    failed.error = "re-timing " + file.string() + ": " + e.what() + " (delete the file to record it again)";
    return failed;
  }
}

aoc::sim::CalibrationResult run_point(const aoc::sim::CalibrationPoint& pt, const std::filesystem::path& root,
                                      aoc::build::Builder& builder, const CalibrateArgs& a) {
  aoc::eval::CandidateEvalOptions opt = aoc::eval::default_candidate_eval_options();
  opt.seed = 1;
  opt.soc = soc_of(pt, a);
  opt.only_cases = {pt.case_name};
  opt.full_simulation = a.full_sim;
  // The single-core cases run for minutes on a loaded machine; the limit only guards a hang.
  opt.limits.wall_seconds = kCaseWallSeconds;
  opt.limits.cpu_seconds = static_cast<uint64_t>(kCaseWallSeconds);
  if (!a.traces_dir.empty()) {
    std::filesystem::create_directories(a.traces_dir);
    opt.on_traces = [&](const std::string&, const std::vector<aoc::runtime::CoreRun>& cores) {
      aoc::eval::write_traces(trace_path(a, pt), cores);
    };
  }
  aoc::eval::PoolOptions pool;
  pool.jobs = 1;
  const aoc::eval::CandidateReport rep = aoc::eval::evaluate_candidates({root / pt.package}, builder, opt, pool).front();
  aoc::sim::CalibrationResult failed;
  failed.point = pt;
  if (rep.cases.empty()) failed.error = rep.message.empty() ? "no case " + pt.case_name : rep.message;
  else if (rep.cases[0].verdict != aoc::eval::Verdict::Ok)
    failed.error = std::string(aoc::eval::to_string(rep.cases[0].verdict)) + ": " + rep.cases[0].message;
  else if (!rep.cases[0].sim_us) failed.error = "the case was not simulated";
  if (!failed.error.empty()) {
    if (!a.traces_dir.empty()) std::filesystem::remove(trace_path(a, pt));  // never re-time a failed run
    return failed;
  }
  return aoc::sim::compare_to_measurement(pt, *rep.cases[0].sim_us, rep.cases[0].profile);
}

std::string pct(double r) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.0f%%", 100 * r);
  return buf;
}

void print_table(const std::vector<aoc::sim::CalibrationResult>& rs) {
  std::printf("%-24s %12s %12s %6s  %-s\n", "case", "measured us", "simulated us", "error",
              "per pipe: measured / simulated us (error)");
  std::string group;
  for (const auto& r : rs) {
    if (r.point.group != group) {
      group = r.point.group;
      std::printf("-- %s (measured on %s)\n", group.c_str(), r.point.soc.c_str());
    }
    if (!r.ran) {
      std::printf("%-24s %12.1f %12s %6s  error: %s\n", r.point.label.c_str(), r.point.task_us, "-", "-", r.error.c_str());
      continue;
    }
    std::string pipes;
    if (r.head_gap) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "task-aiv %.2f/%.2f  ", r.head_gap->measured, r.head_gap->simulated);
      pipes += buf;
    }
    for (const auto& [name, e] : r.pipes) {
      std::string shortname = name.substr(4, name.size() - 9);  // aiv_vec_time -> vec
      char buf[96];
      const bool off = r.point.pipe_tolerance > 0 && std::abs(e.rel()) > r.point.pipe_tolerance;
      std::snprintf(buf, sizeof buf, "%s %.1f/%.1f (%s)%s ", shortname.c_str(), e.measured, e.simulated,
                    pct(e.rel()).c_str(), off ? "!" : " ");
      pipes += buf;
    }
    std::printf("%-24s %12.2f %12.2f %6s%s %s\n", r.point.label.c_str(), r.task.measured, r.task.simulated,
                pct(r.task.rel()).c_str(), r.within_target() ? " " : (r.within_tolerance() ? "*" : "!"),
                pipes.c_str());
  }
}

// The explained deviations that show in this run: a row outside its target but within the
// explained bound, or a ladder row whose order is within the measurements' spread.
void print_explained(const std::vector<aoc::sim::CalibrationResult>& rs) {
  for (const auto& r : rs) {
    if (!r.ran || r.point.explained.empty()) continue;
    if (r.point.explained_tolerance > 0 && !r.within_target() && r.within_tolerance())
      std::printf("* %s: outside %.0f%%, within the explained %.0f%%: %s\n", r.point.label.c_str(),
                  100 * r.point.tolerance, 100 * r.point.explained_tolerance, r.point.explained.c_str());
    if (r.point.explained_order_gap > 0)
      std::printf("* %s: order against the previous row not checked within %.0f%% of measured time: %s\n",
                  r.point.label.c_str(), 100 * r.point.explained_order_gap, r.point.explained.c_str());
  }
}

nlohmann::json to_json(const aoc::sim::CalibrationResult& r) {
  nlohmann::json j = {{"case", r.point.label}, {"group", r.point.group}, {"soc", r.point.soc},
                      {"package", r.point.package.string()}, {"case_name", r.point.case_name},
                      {"ran", r.ran}, {"tolerance", r.point.tolerance}};
  if (!r.point.explained.empty()) {
    j["explained"] = r.point.explained;
    if (r.point.explained_tolerance > 0) j["explained_tolerance"] = r.point.explained_tolerance;
    if (r.point.explained_order_gap > 0) j["explained_order_gap"] = r.point.explained_order_gap;
  }
  if (!r.ran) {
    j["error"] = r.error;
    j["measured_task_us"] = r.point.task_us;
    return j;
  }
  j["measured_task_us"] = r.task.measured;
  j["simulated_task_us"] = r.task.simulated;
  j["task_rel_error"] = r.task.rel();
  j["within_tolerance"] = r.within_tolerance();
  j["within_target"] = r.within_target();
  if (r.head_gap) j["task_minus_aiv_time_us"] = {{"measured", r.head_gap->measured}, {"simulated", r.head_gap->simulated}};
  for (const auto& [name, e] : r.pipes)
    j["pipes"][name] = {{"measured_us", e.measured}, {"simulated_us", e.simulated}, {"rel_error", e.rel()}};
  return j;
}

// One case's recorded traces, loaded once and re-timed on many SoC variants.
struct RecordedCase {
  const aoc::sim::CalibrationResult* result;
  aoc::eval::TraceSet set;
  std::vector<aoc::sim::BlockTrace> blocks;
  double base_us = 0;  // Task Duration on the unmoved SoC
};

// --sensitivity: every SoC parameter moved by 10 % (shares bounded by 1 moved down), every case
// re-timed, and the relative move of each case's Task Duration.
nlohmann::json sensitivity(const std::vector<aoc::sim::CalibrationResult>& results, const CalibrateArgs& a) {
  std::vector<RecordedCase> cases;
  cases.reserve(results.size());
  for (const auto& r : results) {
    if (!r.ran) continue;
    RecordedCase& c = cases.emplace_back();
    c.result = &r;
    c.set = aoc::eval::read_traces(trace_path(a, r.point));
    c.blocks = aoc::runtime::block_traces(c.set.cores);
  }
  nlohmann::json out = {{"parameters", nlohmann::json::array()}, {"single_row", nlohmann::json::array()},
                        {"no_row", nlohmann::json::array()}};
  std::map<std::string, aoc::sim::Soc> socs;
  for (const auto& c : cases) {
    const std::string name = soc_of(c.result->point, a);
    if (!socs.count(name)) socs.emplace(name, aoc::sim::load_soc(name));
  }
  const aoc::sim::EngineOptions eo = engine_options(a);
  for (auto& c : cases) c.base_us = aoc::sim::simulate(socs.at(soc_of(c.result->point, a)), c.blocks, eo).task_duration_us;
  // Data paths no recorded copy takes cannot move any case: they are listed, not re-timed.
  std::set<std::string> used_paths;
  for (const auto& c : cases)
    for (const auto& b : c.blocks)
      for (const auto& rec : b.trace->records)
        if (rec.kind == aoc::RecKind::Copy) used_paths.insert(aoc::sim::copy_path_key(rec));
  const auto knobs = aoc::sim::soc_knobs(socs.begin()->second);
  for (const auto& knob : knobs) {
    if (knob.key.rfind("paths.", 0) == 0) {
      const std::string path = knob.key.substr(6, knob.key.find('.', 6) - 6);
      if (!used_paths.count(path)) {
        out["no_row"].push_back(knob.key);
        continue;
      }
    }
    nlohmann::json moves = nlohmann::json::object();
    int material = 0;
    std::string only;
    for (const auto& c : cases) {
      aoc::sim::Soc soc = socs.at(soc_of(c.result->point, a));
      const double base = c.base_us;
      knob.scale(soc, knob.factor);
      const double moved = aoc::sim::simulate(soc, c.blocks, eo).task_duration_us;
      const double rel = (moved - base) / base;
      moves[c.result->point.label] = rel;
      if (std::abs(rel) >= aoc::sim::kMaterialMove) {
        ++material;
        only = c.result->point.label;
      }
    }
    out["parameters"].push_back({{"parameter", knob.key}, {"factor", knob.factor}, {"moves", moves},
                                 {"rows_moved", material}});
    if (material == 1) out["single_row"].push_back({{"parameter", knob.key}, {"row", only}});
    if (material == 0) out["no_row"].push_back(knob.key);
  }
  return out;
}

void print_sensitivity(const nlohmann::json& s) {
  std::printf("\nsensitivity: Task Duration moves of each case for a 10%% move of each SoC parameter "
              "(shares bounded by 1 moved down); rows moving less than %.0f%% left out\n",
              100 * aoc::sim::kMaterialMove);
  for (const auto& p : s["parameters"]) {
    if (p["rows_moved"].get<int>() == 0) continue;
    std::printf("%-40s x%.1f  %d row(s):", p["parameter"].get<std::string>().c_str(), p["factor"].get<double>(),
                p["rows_moved"].get<int>());
    for (const auto& [label, rel] : p["moves"].items())
      if (std::abs(rel.get<double>()) >= aoc::sim::kMaterialMove)
        std::printf("  %s %s", label.c_str(), pct(rel.get<double>()).c_str());
    std::printf("\n");
  }
  std::printf("resting on one row:");
  for (const auto& e : s["single_row"])
    std::printf("  %s (%s)", e["parameter"].get<std::string>().c_str(), e["row"].get<std::string>().c_str());
  std::printf("\nmoving no row by %.0f%% or more:", 100 * aoc::sim::kMaterialMove);
  for (const auto& k : s["no_row"]) std::printf(" %s", k.get<std::string>().c_str());
  std::printf("\n");
}

int run(CalibrateArgs a) {
  // The sensitivity re-times each case's traces, so they are kept (in a scratch folder unless
  // --traces names one).
  std::filesystem::path scratch;
  if (a.sensitivity && a.traces_dir.empty()) {
    scratch = std::filesystem::temp_directory_path() / ("aoc-calibrate-" + std::to_string(::getpid()));
    a.traces_dir = scratch.string();
  }
  struct Cleanup {
    std::filesystem::path dir;
    ~Cleanup() {
      std::error_code ec;
      if (!dir.empty()) std::filesystem::remove_all(dir, ec);
    }
  } cleanup{scratch};
  aoc::build::BuilderOptions bo = aoc::build::default_builder_options();
  if (!a.cache_dir.empty()) bo.cache_dir = a.cache_dir;
  aoc::build::Builder builder(bo);
  const auto root = bo.root;
  std::vector<aoc::sim::CalibrationPoint> points;
  try {
    points = aoc::sim::load_calibration_points(root / "data" / "calibration");
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  std::vector<aoc::sim::CalibrationResult> results;
  for (const auto& pt : points) {
    if (!a.only.empty() && std::find(a.only.begin(), a.only.end(), pt.label) == a.only.end()) continue;
    if (!a.traces_dir.empty() && std::filesystem::exists(trace_path(a, pt))) {
      results.push_back(retime(pt, trace_path(a, pt), a));
      continue;
    }
    if (!a.json) std::cerr << "running " << pt.label << " (" << pt.package.string() << ") ...\n";
    results.push_back(run_point(pt, root, builder, a));
  }
  if (results.empty()) {
    std::cerr << "error: no calibration case matches --case; the cases are:";
    for (const auto& pt : points) std::cerr << " '" << pt.label << "'";
    std::cerr << "\n";
    return 2;
  }
  const auto violations = aoc::sim::order_violations(results);
  bool within = true;
  for (const auto& r : results) within = within && r.within_tolerance();
  const bool ok = within && violations.empty();
  nlohmann::json sens;
  if (a.sensitivity) {
    try {
      sens = sensitivity(results, a);
    } catch (const std::exception& e) {
      std::cerr << "error: sensitivity: " << e.what() << "\n";
      return 1;
    }
  }
  if (a.json) {
    nlohmann::json j = {{"soc", a.soc.empty() ? "as measured" : a.soc}, {"passed", ok}, {"cases", nlohmann::json::array()},
                        {"order_violations", nlohmann::json::array()}};
    for (const auto& r : results) j["cases"].push_back(to_json(r));
    for (const auto& [x, y] : violations) j["order_violations"].push_back({{"faster_measured", y}, {"than", x}});
    const auto ps = aoc::sim::pipe_summary(results);
    j["pipes_checked"] = ps.checked;
    j["pipes_within"] = ps.within;
    j["pipes_outside"] = ps.outside;
    if (a.sensitivity) j["sensitivity"] = sens;
    std::cout << j.dump(2) << "\n";
  } else {
    print_table(results);
    for (const auto& [x, y] : violations)
      std::cout << "order broken: " << y << " is measured not slower than " << x << " but simulated slower\n";
    print_explained(results);
    std::cout << (within ? "every case within its target (20%, case 0 30%) or an explained bound (marked *)"
                         : "some cases outside their target (marked !)")
              << (violations.empty() ? "; the measured order kept" : "; the measured order broken (above)") << "\n";
    const auto ps = aoc::sim::pipe_summary(results);
    if (ps.checked > 0) {
      std::cout << "per pipe (Add cases 1-6, copy tiles; target 25%): " << ps.within << " of " << ps.checked
                << " within";
      if (!ps.outside.empty()) {
        std::cout << "; outside (docs/calibration.md says why):";
        for (size_t i = 0; i < ps.outside.size(); ++i) std::cout << (i ? "," : "") << " " << ps.outside[i];
      }
      std::cout << "\n";
    }
    if (a.sensitivity) print_sensitivity(sens);
  }
  return ok ? 0 : 1;
}

}  // namespace

void add_calibrate_command(CLI::App& app) {
  auto args = std::make_shared<CalibrateArgs>();
  CLI::App* cmd = app.add_subcommand("calibrate", "Run the calibration kernels (calibration/) on the simulator and "
                                                  "compare with the Atlas A2 measurements in data/calibration");
  cmd->add_option("--soc", args->soc,
                  "SoC model (name or .toml path) to run every case on (default: each case on the SoC it was measured "
                  "on: Ascend910B1 for the Add ladder and copy sweep, Ascend910B2 for the small kernels)");
  cmd->add_option("--case", args->only, "Run only the named case(s), e.g. 'add case 3' or 'copy tile [64,64]'");
  cmd->add_option("--cache-dir", args->cache_dir, "Build cache folder (default: <build>/cache or $AOC_CACHE_DIR)");
  cmd->add_option("--traces", args->traces_dir,
                  "Keep each case's instruction traces in DIR and re-time them on later runs instead of running the "
                  "kernels again (delete DIR after changing a calibration kernel or include/ascendc)");
  cmd->add_flag("--json", args->json, "Print a JSON report instead of a table");
  cmd->add_flag("--full-sim", args->full_sim,
                "Time every instruction, without skipping the iterations of a loop whose simulated state repeats");
  cmd->add_flag("--sensitivity", args->sensitivity,
                "Also move each SoC parameter by 10% and print how much each case's Task Duration moves, and which "
                "parameters rest on a single case (re-times the traces; with --traces, of the kept ones)");
  cmd->callback([args]() { exit_status() = run(*args); });
}

}  // namespace aoc::cli
