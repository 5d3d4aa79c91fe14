// Whole-kernel calibration points: measured msprof numbers of real kernels (data/calibration)
// paired with the operator package and case that re-implement them, and the comparison of a
// simulated profile against them. Running the kernels is the caller's job (ascendopt calibrate).
#pragma once
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace aoc::sim {

struct CalibrationPoint {
  std::string label;               // "add case 3", "copy tile [64,64]"
  std::string group;               // "add_ladder", "copy_tile" or "small_kernels": orders are checked within a group
  std::string soc;                 // the SoC the measurement was taken on
  std::filesystem::path package;   // relative to the project root
  std::string case_name;           // the package's case that reproduces the measurement
  double task_us = 0;              // measured Task Duration
  double tolerance = 0.2;          // allowed |relative error| of the Task Duration
  std::map<std::string, double> pipes;  // measured msprof fields present in the data (aiv_vec_time ...)
  // How the group's measured order is checked: below 0, each row against the next one in the
  // file (a ladder or sweep); otherwise every pair of rows whose measured times differ by more
  // than this fraction (rows of unrelated kernels within measurement spread are not ordered).
  double order_margin = -1;
  double pipe_tolerance = 0;  // allowed |relative error| of each measured pipe time (0: not checked)
  double core_us = 0;         // measured aiv_time (mean core time over the blocks); 0 when not measured
  // A deviation explained in docs/calibration.md (explained_deviations.csv): the Task Duration
  // bound that replaces `tolerance`, or the measured gap to the previous ladder row below which
  // their order is within the measurements' spread; with the cause printed beside the row.
  double explained_tolerance = 0;
  double explained_order_gap = 0;
  std::string explained;
};

// Reads add_ladder_a2.csv, copy_tile_sweep_a2.csv and small_kernels_910b2.csv from `data_dir`, and the deviations
// explained in docs/calibration.md from explained_deviations.csv. Throws std::runtime_error naming the file and
// line when a file is missing or malformed, or an explained deviation names no case.
std::vector<CalibrationPoint> load_calibration_points(const std::filesystem::path& data_dir);

struct FieldError {
  double measured = 0, simulated = 0;
  double rel() const { return measured != 0 ? (simulated - measured) / measured : 0; }
};

struct CalibrationResult {
  CalibrationPoint point;
  bool ran = false;
  std::string error;  // why the kernel did not run or did not pass its golden check
  FieldError task;
  std::map<std::string, FieldError> pipes;
  // Task Duration - aiv_time: the head and tail overhead the cores do not see plus the spread
  // between the average and the slowest core (only where aiv_time is measured).
  std::optional<FieldError> head_gap;
  bool within_tolerance() const;  // within the target, or within an explained deviation's bound
  bool within_target() const;     // within `tolerance` itself
};

// Fills the simulated side from a run's Task Duration and msprof-style fields.
CalibrationResult compare_to_measurement(const CalibrationPoint& p, double sim_task_us,
                                         const std::map<std::string, double>& sim_fields);

// The per-pipe times of the cases whose pipes are checked (CalibrationPoint::pipe_tolerance).
struct PipeSummary {
  int checked = 0, within = 0;
  std::vector<std::string> outside;  // "add case 5 aiv_mte3_time -72%"
};
PipeSummary pipe_summary(const std::vector<CalibrationResult>& rs);

// Pairs (slower or equal measured, faster measured) of the same group whose measured order the
// simulation breaks (see CalibrationPoint::order_margin); empty when every measured order is kept.
std::vector<std::pair<std::string, std::string>> order_violations(const std::vector<CalibrationResult>& rs);

}  // namespace aoc::sim
