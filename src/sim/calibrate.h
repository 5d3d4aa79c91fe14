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
  std::string group;               // "add_ladder" or "copy_tile": the ordering check runs within a group
  std::filesystem::path package;   // relative to the project root
  std::string case_name;           // the package's case that reproduces the measurement
  double task_us = 0;              // measured Task Duration
  double tolerance = 0.2;          // allowed |relative error| of the Task Duration
  std::map<std::string, double> pipes;  // measured msprof fields present in the data (aiv_vec_time ...)
};

// Reads add_ladder_a2.csv and copy_tile_sweep_a2.csv from `data_dir`. Throws std::runtime_error
// naming the file and line when a file is missing or malformed.
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
  bool within_tolerance() const;
};

// Fills the simulated side from a run's Task Duration and msprof-style fields.
CalibrationResult compare_to_measurement(const CalibrationPoint& p, double sim_task_us,
                                         const std::map<std::string, double>& sim_fields);

// Pairs (earlier, later) of the same group whose measured order (later not slower) the
// simulation breaks; empty when every measured order is kept.
std::vector<std::pair<std::string, std::string>> order_violations(const std::vector<CalibrationResult>& rs);

}  // namespace aoc::sim
