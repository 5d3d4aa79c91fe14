// `ascendopt calibrate`: builds the calibration kernels (calibration/), runs them through the
// normal evaluator on the SoC model, and prints simulated against measured Task Duration and
// per-pipe times (data/calibration), with the relative errors and whether the targets hold.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "eval/evaluator.h"
#include "ops/op_package.h"
#include "sim/calibrate.h"

namespace aoc::cli {
namespace {

struct CalibrateArgs {
  std::string soc = "Ascend910B1";
  std::vector<std::string> only;
  std::string cache_dir;
  bool json = false;
};

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
  aoc::eval::OpReport rep = aoc::eval::evaluate_package(pkg, builder, opt);
  if (!rep.setup_error.empty()) failed.error = rep.setup_error;
  else if (!rep.build_failures.empty()) failed.error = "build failed: " + rep.build_failures.front().what;
  else if (rep.cases.empty()) failed.error = "no case " + pt.case_name;
  else if (rep.cases[0].verdict != aoc::op::Verdict::Pass) failed.error = rep.cases[0].message;
  else if (!rep.cases[0].sim_us) failed.error = "simulation failed: " + rep.cases[0].sim_error;
  if (!failed.error.empty()) return failed;
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
  bool ok = violations.empty();
  for (const auto& r : results) ok = ok && r.within_tolerance();
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
    std::cout << (ok ? "every case within its target (20%, case 0 30%) and the measured order kept"
                     : "some targets missed (marked !)")
              << "\n";
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
  cmd->add_flag("--json", args->json, "Print a JSON report instead of a table");
  cmd->callback([args]() { exit_status() = run(*args); });
}

}  // namespace aoc::cli
