#include "sim/calibrate.h"

#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace aoc::sim {
namespace {

struct Csv {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::filesystem::path file;

  size_t column(const std::string& name) const {
    for (size_t i = 0; i < header.size(); ++i)
      if (header[i] == name) return i;
    throw std::runtime_error(file.string() + ": no column '" + name + "'; the calibration data must keep its header");
  }
  double number(size_t row, const std::string& name) const {
    const std::string& v = rows[row].at(column(name));
    try {
      return std::stod(v);
    } catch (const std::exception&) {
      throw std::runtime_error(file.string() + ":" + std::to_string(row + 2) + ": column '" + name + "' holds '" + v +
                               "', not a number");
    }
  }
};

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::string cell;
  std::istringstream is(line);
  while (std::getline(is, cell, ',')) out.push_back(cell);
  return out;
}

Csv read_csv(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in)
    throw std::runtime_error("cannot read " + file.string() +
                             "; run from the project tree or set $AOC_ROOT to it (data/calibration holds the measurements)");
  Csv csv;
  csv.file = file;
  std::string line;
  std::getline(in, line);
  csv.header = split(line);
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    auto cells = split(line);
    if (cells.size() != csv.header.size())
      throw std::runtime_error(file.string() + ": a row has " + std::to_string(cells.size()) + " cells, the header " +
                               std::to_string(csv.header.size()));
    csv.rows.push_back(std::move(cells));
  }
  return csv;
}

}  // namespace

std::vector<CalibrationPoint> load_calibration_points(const std::filesystem::path& data_dir) {
  std::vector<CalibrationPoint> points;
  const Csv add = read_csv(data_dir / "add_ladder_a2.csv");
  for (size_t i = 0; i < add.rows.size(); ++i) {
    CalibrationPoint p;
    const int k = int(add.number(i, "case"));
    p.label = "add case " + std::to_string(k);
    p.group = "add_ladder";
    p.package = std::filesystem::path("calibration/add_ladder") / ("case" + std::to_string(k));
    p.case_name = "a2_8192x8192";
    p.task_us = add.number(i, "task_duration_us");
    p.tolerance = k == 0 ? 0.3 : 0.2;  // the scalar loop is modelled more coarsely
    for (const char* f : {"aiv_vec_time", "aiv_scalar_time", "aiv_mte2_time", "aiv_mte3_time"})
      p.pipes[f] = add.number(i, std::string(f) + "_us");
    points.push_back(p);
  }
  const Csv copy = read_csv(data_dir / "copy_tile_sweep_a2.csv");
  for (size_t i = 0; i < copy.rows.size(); ++i) {
    CalibrationPoint p;
    const int r = int(copy.number(i, "tile_rows")), c = int(copy.number(i, "tile_cols"));
    p.label = "copy tile [" + std::to_string(r) + "," + std::to_string(c) + "]";
    p.group = "copy_tile";
    p.package = "calibration/copy_tile";
    p.case_name = "a2_tile_" + std::to_string(r) + "x" + std::to_string(c);
    p.task_us = copy.number(i, "task_duration_us");
    p.pipes["aiv_mte2_time"] = copy.number(i, "aiv_mte2_time_us");
    points.push_back(p);
  }
  return points;
}

bool CalibrationResult::within_tolerance() const { return ran && std::abs(task.rel()) <= point.tolerance; }

CalibrationResult compare_to_measurement(const CalibrationPoint& p, double sim_task_us,
                                         const std::map<std::string, double>& sim_fields) {
  CalibrationResult r;
  r.point = p;
  r.ran = true;
  r.task = {p.task_us, sim_task_us};
  for (const auto& [name, measured] : p.pipes) {
    auto it = sim_fields.find(name);
    r.pipes[name] = {measured, it != sim_fields.end() ? it->second : 0.0};
  }
  return r;
}

std::vector<std::pair<std::string, std::string>> order_violations(const std::vector<CalibrationResult>& rs) {
  std::vector<std::pair<std::string, std::string>> out;
  for (size_t i = 0; i + 1 < rs.size(); ++i) {
    const auto& a = rs[i];
    const auto& b = rs[i + 1];
    if (!a.ran || !b.ran || a.point.group != b.point.group) continue;
    const bool measured_not_slower = b.task.measured <= a.task.measured;
    if (measured_not_slower && b.task.simulated > a.task.simulated) out.emplace_back(a.point.label, b.point.label);
  }
  return out;
}

}  // namespace aoc::sim
