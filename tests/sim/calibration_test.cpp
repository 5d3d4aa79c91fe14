// The model against whole-kernel measurements on Atlas A2 (data/calibration), on the real
// calibration kernels (calibration/) built and run through the normal evaluator. The targets:
// Task Duration within 20 % (the scalar case 0 within 30 %) and the measured order of the Add
// ladder kept. This test runs the 48-core cases that fit a test's time budget; `ascendopt
// calibrate` runs the full table, including the single-core cases 0 and 1 and the issue-bound
// copy tile [1,64].
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>

#include "eval/evaluator.h"
#include "ops/op_package.h"
#include "sim/calibrate.h"

using namespace aoc;

namespace {

const std::filesystem::path kRoot = AOC_SOURCE_DIR;

sim::CalibrationResult run_point(const sim::CalibrationPoint& pt) {
  static eval::Builder builder(eval::default_builder_options());
  op::OpPackage pkg = op::load_op_package(kRoot / pt.package);
  eval::EvalOptions opt;
  opt.seed = 7;
  opt.soc = "Ascend910B1";
  opt.only_cases = {pt.case_name};
  eval::OpReport rep = eval::evaluate_package(pkg, builder, opt);
  EXPECT_TRUE(rep.build_failures.empty() && rep.setup_error.empty()) << pt.label << ": " << rep.setup_error;
  if (rep.cases.empty() || !rep.cases[0].sim_us) {
    ADD_FAILURE() << pt.label << " did not run";
    return {};
  }
  EXPECT_EQ(rep.cases[0].verdict, op::Verdict::Pass) << pt.label << ": " << rep.cases[0].message;
  return sim::compare_to_measurement(pt, *rep.cases[0].sim_us, rep.cases[0].sim_profile);
}

std::map<std::string, sim::CalibrationPoint> points() {
  std::map<std::string, sim::CalibrationPoint> m;
  for (auto& p : sim::load_calibration_points(kRoot / "data" / "calibration")) m[p.label] = p;
  return m;
}

}  // namespace

TEST(Calibration, LoadsMeasuredPointsWithTheirPackages) {
  auto pts = points();
  ASSERT_EQ(pts.size(), 10u);
  EXPECT_DOUBLE_EQ(pts.at("add case 6").task_us, 184.52);
  EXPECT_DOUBLE_EQ(pts.at("copy tile [1,64]").task_us, 564.8);
  EXPECT_DOUBLE_EQ(pts.at("add case 0").tolerance, 0.3);
  for (const auto& [label, p] : pts) EXPECT_TRUE(std::filesystem::exists(kRoot / p.package / "op.toml")) << label;
}

TEST(Calibration, OrderCheckFlagsASlowerLaterCase) {
  sim::CalibrationPoint a, b;
  a.label = "a", b.label = "b";
  a.group = b.group = "g";
  a.task_us = 10, b.task_us = 8;
  std::vector<sim::CalibrationResult> rs = {sim::compare_to_measurement(a, 9, {}), sim::compare_to_measurement(b, 9.5, {})};
  EXPECT_EQ(sim::order_violations(rs).size(), 1u);
  rs[1] = sim::compare_to_measurement(b, 8.5, {});
  EXPECT_TRUE(sim::order_violations(rs).empty());
}

// 48-core Add ladder cases 4-6: the L2 bypass (case 5) and the bank-conflict-free layout
// (case 6) must both show, in the measured order, each within 20 %.
TEST(Calibration, AddLadderDoubleBufferL2BypassAndBankLayout) {
  auto pts = points();
  std::vector<sim::CalibrationResult> rs;
  for (const char* label : {"add case 4", "add case 5", "add case 6"}) {
    rs.push_back(run_point(pts.at(label)));
    const auto& r = rs.back();
    std::printf("%s: simulated %.1f us, measured %.1f us (%+.0f%%)\n", label, r.task.simulated, r.task.measured,
                100 * r.task.rel());
    EXPECT_TRUE(r.within_tolerance()) << label << ": error " << r.task.rel();
  }
  // The L2 bypass of case 5 is the large step (264.0 -> 187.7 us measured) and must show.
  EXPECT_TRUE(sim::order_violations({rs[0], rs[1]}).empty());
  // Case 6 is measured 1.7 % faster than case 5. Its conflict-free layout halves the vector
  // time, which alone is hidden behind the HBM reads; it shows because copies into and out of
  // the banks a vector instruction uses wait for it (UB port contention, docs/calibration.md).
  EXPECT_TRUE(sim::order_violations({rs[1], rs[2]}).empty()) << "add case 6 is not simulated faster than add case 5";
  EXPECT_LT(rs[2].task.simulated, rs[1].task.simulated);
}

TEST(Calibration, CopyTileSweepLargeTiles) {
  auto pts = points();
  std::vector<sim::CalibrationResult> rs;
  for (const char* label : {"copy tile [64,64]", "copy tile [64,1024]"}) {
    rs.push_back(run_point(pts.at(label)));
    const auto& r = rs.back();
    std::printf("%s: simulated %.1f us, measured %.1f us (%+.0f%%)\n", label, r.task.simulated, r.task.measured,
                100 * r.task.rel());
    EXPECT_TRUE(r.within_tolerance()) << label << ": error " << r.task.rel();
  }
  // Same bytes, 32 times the bursts: the burst rate makes the short rows slower.
  EXPECT_TRUE(sim::order_violations(rs).empty());
}
