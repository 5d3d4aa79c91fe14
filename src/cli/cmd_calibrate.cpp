// `ascendopt calibrate`: builds the calibration kernels (calibration/), runs them through the
// normal evaluator on the SoC model, and prints simulated against measured Task Duration and
// per-pipe times (data/calibration), with the relative errors and whether the targets hold.
// With --traces DIR the per-core instruction traces of each case are kept in DIR and later
// runs only re-time them, so refitting a SoC file takes seconds instead of re-running kernels.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "eval/evaluator.h"
#include "eval/harness_protocol.h"
#include "ops/op_package.h"
#include "sim/calibrate.h"
#include "sim/engine.h"
#include "sim/profile.h"
#include "sim/soc.h"

namespace aoc::cli {
namespace {

struct CalibrateArgs {
  std::string soc = "Ascend910B1";
  std::vector<std::string> only;
  std::string cache_dir;
  std::string traces_dir;
  bool json = false;
};

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
    std::vector<aoc::sim::BlockTrace> blocks;
    for (const auto& core : set.cores)
      blocks.push_back({&core.trace, core.core_type == 1 ? aoc::sim::CoreType::AIC : aoc::sim::CoreType::AIV});
    const aoc::sim::Soc soc = aoc::sim::load_soc(a.soc);
    const aoc::sim::SimResult sim = aoc::sim::simulate(soc, blocks);
    return aoc::sim::compare_to_measurement(pt, sim.task_duration_us, aoc::sim::make_profile(soc, sim).fields);
  } catch (const std::exception& e) {
    failed.error = "re-timing " + file.string() + ": " + e.what() + " (delete the file to record it again)";
    return failed;
  }
}

aoc::sim::CalibrationResult run_point(const aoc::sim::CalibrationPoint& pt, const std::filesystem::path& root,
                                      aoc::eval::Builder& builder, const CalibrateArgs& a) {
  aoc::sim::CalibrationResult failed;
  failed.point = pt;
  aoc::op::OpPackage pkg;
  try {
    pkg = aoc::op::load_op_package(root / pt.package);
  } catch (const std::exception& e) {
    failed.error = e.what();
    return failed;
  }
  aoc::eval::EvalOptions opt;
  opt.seed = 1;
  opt.soc = a.soc;
  opt.only_cases = {pt.case_name};
  if (!a.traces_dir.empty()) {
    std::filesystem::create_directories(a.traces_dir);
    opt.on_traces = [&](const std::string&, const std::vector<aoc::rt::CoreRun>& cores) {
      aoc::eval::write_traces(trace_path(a, pt), cores);
    };
  }
  aoc::eval::OpReport rep = aoc::eval::evaluate_package(pkg, builder, opt);
  if (!rep.setup_error.empty()) failed.error = rep.setup_error;
  else if (!rep.build_failures.empty()) failed.error = "build failed: " + rep.build_failures.front().what;
  else if (rep.cases.empty()) failed.error = "no case " + pt.case_name;
  else if (rep.cases[0].verdict != aoc::op::Verdict::Pass) failed.error = rep.cases[0].message;
  else if (!rep.cases[0].sim_us) failed.error = "simulation failed: " + rep.cases[0].sim_error;
  if (!failed.error.empty()) {
    if (!a.traces_dir.empty()) std::filesystem::remove(trace_path(a, pt));  // never re-time a failed run
    return failed;
  }
  return aoc::sim::compare_to_measurement(pt, *rep.cases[0].sim_us, rep.cases[0].sim_profile);
}

std::string pct(double r) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.0f%%", 100 * r);
  return buf;
}

void print_table(const std::vector<aoc::sim::CalibrationResult>& rs) {
  std::printf("%-20s %12s %12s %6s  %-s\n", "case", "measured us", "simulated us", "error",
              "per pipe: measured / simulated us (error)");
  for (const auto& r : rs) {
    if (!r.ran) {
      std::printf("%-20s %12.1f %12s %6s  error: %s\n", r.point.label.c_str(), r.point.task_us, "-", "-", r.error.c_str());
      continue;
    }
    std::string pipes;
    for (const auto& [name, e] : r.pipes) {
      std::string shortname = name.substr(4, name.size() - 9);  // aiv_vec_time -> vec
      char buf[96];
      std::snprintf(buf, sizeof buf, "%s %.1f/%.1f (%s)  ", shortname.c_str(), e.measured, e.simulated, pct(e.rel()).c_str());
      pipes += buf;
    }
    std::printf("%-20s %12.1f %12.1f %6s%s %s\n", r.point.label.c_str(), r.task.measured, r.task.simulated,
                pct(r.task.rel()).c_str(), r.within_tolerance() ? " " : "!", pipes.c_str());
  }
}

nlohmann::json to_json(const aoc::sim::CalibrationResult& r) {
  nlohmann::json j = {{"case", r.point.label}, {"package", r.point.package.string()}, {"case_name", r.point.case_name},
                      {"ran", r.ran}, {"tolerance", r.point.tolerance}};
  if (!r.ran) {
    j["error"] = r.error;
    j["measured_task_us"] = r.point.task_us;
    return j;
  }
  j["measured_task_us"] = r.task.measured;
  j["simulated_task_us"] = r.task.simulated;
  j["task_rel_error"] = r.task.rel();
  j["within_tolerance"] = r.within_tolerance();
  for (const auto& [name, e] : r.pipes)
    j["pipes"][name] = {{"measured_us", e.measured}, {"simulated_us", e.simulated}, {"rel_error", e.rel()}};
  return j;
}

int run(const CalibrateArgs& a) {
  aoc::eval::BuilderOptions bo = aoc::eval::default_builder_options();
  if (!a.cache_dir.empty()) bo.cache_dir = a.cache_dir;
  aoc::eval::Builder builder(bo);
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
  if (a.json) {
    nlohmann::json j = {{"soc", a.soc}, {"passed", ok}, {"cases", nlohmann::json::array()},
                        {"order_violations", nlohmann::json::array()}};
    for (const auto& r : results) j["cases"].push_back(to_json(r));
    for (const auto& [x, y] : violations) j["order_violations"].push_back({{"faster_measured", y}, {"than", x}});
    std::cout << j.dump(2) << "\n";
  } else {
    print_table(results);
    for (const auto& [x, y] : violations)
      std::cout << "order broken: " << y << " is measured not slower than " << x << " but simulated slower\n";
    std::cout << (within ? "every case within its target (20%, case 0 30%)" : "some cases outside their target (marked !)")
              << (violations.empty() ? "; the measured order kept" : "; the measured order broken (above)") << "\n";
  }
  return ok ? 0 : 1;
}

}  // namespace

void add_calibrate_command(CLI::App& app) {
  auto args = std::make_shared<CalibrateArgs>();
  CLI::App* cmd = app.add_subcommand("calibrate", "Run the calibration kernels (calibration/) on the simulator and "
                                                  "compare with the Atlas A2 measurements in data/calibration");
  cmd->add_option("--soc", args->soc, "SoC model to check")->capture_default_str();
  cmd->add_option("--case", args->only, "Run only the named case(s), e.g. 'add case 3' or 'copy tile [64,64]'");
  cmd->add_option("--cache-dir", args->cache_dir, "Build cache folder (default: <build>/cache or $AOC_CACHE_DIR)");
  cmd->add_option("--traces", args->traces_dir,
                  "Keep each case's instruction traces in DIR and re-time them on later runs instead of running the "
                  "kernels again (delete DIR after changing a calibration kernel or include/ascendc)");
  cmd->add_flag("--json", args->json, "Print a JSON report instead of a table");
  cmd->callback([args]() { exit_status() = run(*args); });
}

}  // namespace aoc::cli
