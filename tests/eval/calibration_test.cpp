// The model against whole-kernel measurements on Atlas A2 (data/calibration), on the real
// calibration kernels (calibration/) built and run through the evaluator's isolated path, as
// `ascendopt calibrate` runs them. The targets: Task Duration within 20 % (the scalar case 0
// within 30 %) and the measured order of the Add ladder kept; the small full-chip kernels
// (910B2) within 20 % with their measured order kept.
// This test runs the 48-core cases that fit a test's time budget; `ascendopt calibrate` runs
// the full table, including the single-core cases 0 and 1 and the issue-bound copy tile [1,64].
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "eval/eval_test_support.h"
#include "runtime/block_traces.h"
#include "sim/calibrate.h"
#include "sim/engine.h"
#include "sim/soc.h"

using namespace aoc;

namespace {

const std::filesystem::path kRoot = AOC_SOURCE_DIR;

sim::CalibrationResult run_point(const sim::CalibrationPoint& pt) {
  eval::CandidateEvalOptions opt = eval::testing::test_options({pt.case_name});
  opt.seed = 7;
  opt.soc = pt.soc;
  opt.limits.wall_seconds = 300;  // a hang guard: large cases take long on a loaded machine
  opt.limits.cpu_seconds = 600;
  const eval::CandidateReport rep = eval::testing::evaluate_dir(kRoot / pt.package, opt);
  if (rep.cases.empty() || !rep.cases[0].sim_us) {
    ADD_FAILURE() << pt.label << " did not run: " << eval::to_string(rep.verdict) << " " << rep.message;
    return {};
  }
  EXPECT_EQ(rep.cases[0].verdict, eval::Verdict::Ok) << pt.label << ": " << rep.cases[0].message;
  return sim::compare_to_measurement(pt, *rep.cases[0].sim_us, rep.cases[0].profile);
}

std::map<std::string, sim::CalibrationPoint> points() {
  std::map<std::string, sim::CalibrationPoint> m;
  for (auto& p : sim::load_calibration_points(kRoot / "data" / "calibration")) m[p.label] = p;
  return m;
}

}  // namespace

TEST(Calibration, LoadsMeasuredPointsWithTheirPackages) {
  auto pts = points();
  ASSERT_EQ(pts.size(), 24u);
  EXPECT_DOUBLE_EQ(pts.at("add case 6").task_us, 184.52);
  EXPECT_EQ(pts.at("add case 6").soc, "Ascend910B1");
  const auto& sig = pts.at("Sigmoid bf16 [1000003]");
  EXPECT_DOUBLE_EQ(sig.task_us, 5.12);
  EXPECT_EQ(sig.soc, "Ascend910B2");
  EXPECT_EQ(sig.group, "small_kernels");
  EXPECT_EQ(sig.case_name, "sigmoid_bf16_1000003");
  EXPECT_EQ(pts.at("Maximum f16 [1023,1023]").case_name, "maximum_f16_1023x1023");
  EXPECT_DOUBLE_EQ(pts.at("copy tile [1,64]").task_us, 564.8);
  EXPECT_DOUBLE_EQ(pts.at("add case 0").tolerance, 0.3);
  // The deviations docs/calibration.md explains, with their bounds.
  EXPECT_DOUBLE_EQ(pts.at("add case 2").tolerance, 0.2);
  EXPECT_DOUBLE_EQ(pts.at("add case 2").explained_tolerance, 0.25);
  EXPECT_DOUBLE_EQ(pts.at("add case 6").explained_order_gap, 0.02);
  EXPECT_FALSE(pts.at("add case 2").explained.empty());
  EXPECT_TRUE(pts.at("add case 3").explained.empty());
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

// An explained deviation widens the bound to the explained one and no further; the target
// itself still reports the miss.
TEST(Calibration, ExplainedDeviationBoundsTheErrorItExplains) {
  sim::CalibrationPoint p;
  p.task_us = 100;
  p.explained_tolerance = 0.25;
  p.explained = "cause";
  const auto inside = sim::compare_to_measurement(p, 77, {});
  EXPECT_FALSE(inside.within_target());
  EXPECT_TRUE(inside.within_tolerance());
  EXPECT_FALSE(sim::compare_to_measurement(p, 74, {}).within_tolerance());
  sim::CalibrationPoint q = p;
  q.explained_tolerance = 0;
  EXPECT_FALSE(sim::compare_to_measurement(q, 77, {}).within_tolerance());
}

// A ladder row whose order is explained as within the measurements' spread is not ordered
// against the previous row while their measured gap is below that spread.
TEST(Calibration, ExplainedOrderGapOnlyCoversCloseRows) {
  sim::CalibrationPoint a, b;
  a.label = "a", b.label = "b";
  a.group = b.group = "g";
  b.explained_order_gap = 0.02;
  a.task_us = 100, b.task_us = 98.5;
  std::vector<sim::CalibrationResult> rs = {sim::compare_to_measurement(a, 90, {}), sim::compare_to_measurement(b, 90.1, {})};
  EXPECT_TRUE(sim::order_violations(rs).empty());
  b.task_us = 97;
  rs[1] = sim::compare_to_measurement(b, 90.1, {});
  EXPECT_EQ(sim::order_violations(rs).size(), 1u);
}

// Rows of unrelated kernels: only pairs measured more than the margin apart are ordered, in
// either file order.
TEST(Calibration, OrderCheckWithAMarginComparesEveryPairApart) {
  sim::CalibrationPoint a, b, c;
  a.label = "a", b.label = "b", c.label = "c";
  a.group = b.group = c.group = "g";
  a.order_margin = b.order_margin = c.order_margin = 0.1;
  a.task_us = 5.0, b.task_us = 5.3, c.task_us = 6.8;
  // a and b are 6 % apart: their simulated order is free; c is slower than both by far.
  std::vector<sim::CalibrationResult> rs = {sim::compare_to_measurement(a, 5.5, {}), sim::compare_to_measurement(b, 5.1, {}),
                                            sim::compare_to_measurement(c, 6.0, {})};
  EXPECT_TRUE(sim::order_violations(rs).empty());
  rs[0] = sim::compare_to_measurement(a, 6.1, {});
  const auto v = sim::order_violations(rs);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].first, "c");
  EXPECT_EQ(v[0].second, "a");
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
  // time, as in the model; but with blocks starting one after another (launch.block_dispatch_us)
  // the cores no longer run in lockstep, the copies rarely wait on the vector's banks, and the
  // two cases are simulated within 0.1 % of each other with case 6 the slower: the measured
  // Task Duration order of 5 and 6 is not kept (docs/calibration.md, "Current accuracy").
  EXPECT_LT(rs[2].pipes.at("aiv_vec_time").simulated, 0.6 * rs[1].pipes.at("aiv_vec_time").simulated);
  EXPECT_NEAR(rs[2].task.simulated / rs[1].task.simulated, 1.0, 0.01);
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

// The small full-chip kernels on 910B2: a few microseconds each, mostly the cost of starting
// 48 cores. Every row within 20 %, and rows measured more than 10 % apart in their order.
TEST(Calibration, SmallFullChipKernels) {
  std::vector<sim::CalibrationResult> rs;
  for (const auto& [label, p] : points()) {
    if (p.group != "small_kernels") continue;
    rs.push_back(run_point(p));
    const auto& r = rs.back();
    std::printf("%s: simulated %.2f us, measured %.2f us (%+.0f%%)\n", label.c_str(), r.task.simulated,
                r.task.measured, 100 * r.task.rel());
    EXPECT_TRUE(r.within_tolerance()) << label << ": error " << r.task.rel();
  }
  EXPECT_EQ(rs.size(), 14u);
  for (const auto& [slow, fast] : sim::order_violations(rs))
    ADD_FAILURE() << fast << " is measured faster than " << slow << " but simulated slower";
}

// `ascendopt calibrate --traces` keeps the per-core traces the evaluation hands back from the
// sandboxed child and later only re-times them: re-timing them must give the Task Duration
// the evaluation reported.
TEST(Calibration, TracesHandedBackRetimeToTheReportedDuration) {
  const sim::CalibrationPoint pt = points().at("Maximum f16 [1023,1023]");
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("aoc_calibration_trace_" + std::to_string(::getpid()));
  eval::CandidateEvalOptions opt = eval::testing::test_options({pt.case_name});
  opt.seed = 7;
  opt.soc = pt.soc;
  opt.limits.wall_seconds = 300;
  std::vector<std::string> handed;
  opt.on_traces = [&](const std::string& name, const std::vector<runtime::CoreRun>& cores) {
    handed.push_back(name);
    eval::write_traces(file, cores);
  };
  const eval::CandidateReport rep = eval::testing::evaluate_dir(kRoot / pt.package, opt);
  ASSERT_EQ(rep.cases.size(), 1u) << rep.message;
  ASSERT_TRUE(rep.cases[0].sim_us) << rep.cases[0].message;
  ASSERT_EQ(handed, std::vector<std::string>{pt.case_name});
  const eval::TraceSet set = eval::read_traces(file);
  std::filesystem::remove(file);
  const std::vector<sim::BlockTrace> blocks = runtime::block_traces(set.cores);
  EXPECT_EQ(blocks.size(), rep.cases[0].block_dim);
  EXPECT_DOUBLE_EQ(sim::simulate(sim::load_soc(pt.soc), blocks).task_duration_us, *rep.cases[0].sim_us);
}
