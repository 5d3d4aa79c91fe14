#include "sim/calibrate.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
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

// Splits a CSV line at commas outside double quotes ("[1024,1024]" is one cell, unquoted).
std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (char ch : line) {
    if (ch == '"') quoted = !quoted;
    else if (ch == ',' && !quoted) out.emplace_back();
    else if (ch != '\r') out.back() += ch;
  }
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
    p.soc = "Ascend910B1";  // Atlas A2 at 1.85 GHz
    p.package = std::filesystem::path("calibration/add_ladder") / ("case" + std::to_string(k));
    p.case_name = "a2_8192x8192";
    p.task_us = add.number(i, "task_duration_us");
    p.tolerance = k == 0 ? 0.3 : 0.2;  // the scalar loop is modelled more coarsely
    p.pipe_tolerance = k == 0 ? 0 : 0.25;
    p.core_us = add.number(i, "aiv_time_us");
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
    p.soc = "Ascend910B1";
    p.package = "calibration/copy_tile";
    p.case_name = "a2_tile_" + std::to_string(r) + "x" + std::to_string(c);
    p.task_us = copy.number(i, "task_duration_us");
    p.pipes["aiv_mte2_time"] = copy.number(i, "aiv_mte2_time_us");
    p.pipe_tolerance = 0.25;
    points.push_back(p);
  }
  const Csv small = read_csv(data_dir / "small_kernels_910b2.csv");
  const size_t op_col = small.column("op"), dtype_col = small.column("dtype"), shape_col = small.column("shape");
  for (size_t i = 0; i < small.rows.size(); ++i) {
    const auto& row = small.rows[i];
    static const std::map<std::string, std::string> kShort = {{"float16", "f16"}, {"bfloat16", "bf16"}, {"float32", "f32"}};
    auto dt = kShort.find(row[dtype_col]);
    if (dt == kShort.end())
      throw std::runtime_error(small.file.string() + ":" + std::to_string(i + 2) + ": unknown dtype '" + row[dtype_col] +
                               "' (float16, bfloat16 or float32)");
    std::string dims = row[shape_col];
    dims.erase(std::remove_if(dims.begin(), dims.end(), [](char ch) { return ch == '[' || ch == ']' || ch == ' '; }),
               dims.end());
    CalibrationPoint p;
    p.label = row[op_col] + " " + dt->second + " [" + dims + "]";
    p.group = "small_kernels";
    p.soc = "Ascend910B2";
    p.package = "calibration/small_kernels";
    std::string op = row[op_col];
    std::transform(op.begin(), op.end(), op.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
    std::replace(dims.begin(), dims.end(), ',', 'x');
    p.case_name = op + "_" + dt->second + "_" + dims;
    p.task_us = small.number(i, "task_duration_us");
    p.order_margin = 0.1;
    points.push_back(p);
  }
  const Csv dev = read_csv(data_dir / "explained_deviations.csv");
  const size_t case_col = dev.column("case"), check_col = dev.column("check"), cause_col = dev.column("cause");
  for (size_t i = 0; i < dev.rows.size(); ++i) {
    const std::string where = dev.file.string() + ":" + std::to_string(i + 2) + ": ";
    auto it = std::find_if(points.begin(), points.end(),
                           [&](const CalibrationPoint& p) { return p.label == dev.rows[i][case_col]; });
    if (it == points.end()) throw std::runtime_error(where + "no calibration case '" + dev.rows[i][case_col] + "'");
    const std::string& check = dev.rows[i][check_col];
    const double bound = dev.number(i, "bound");
    if (check == "task_duration") it->explained_tolerance = bound;
    else if (check == "order") it->explained_order_gap = bound;
    else throw std::runtime_error(where + "check '" + check + "' is neither task_duration nor order");
    it->explained = dev.rows[i][cause_col];
  }
  return points;
}

bool CalibrationResult::within_target() const { return ran && std::abs(task.rel()) <= point.tolerance; }

bool CalibrationResult::within_tolerance() const {
  return within_target() || (ran && std::abs(task.rel()) <= point.explained_tolerance);
}

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
  if (auto it = sim_fields.find("aiv_time"); p.core_us > 0 && it != sim_fields.end())
    r.head_gap = FieldError{p.task_us - p.core_us, sim_task_us - it->second};
  return r;
}

PipeSummary pipe_summary(const std::vector<CalibrationResult>& rs) {
  PipeSummary s;
  for (const auto& r : rs) {
    if (!r.ran || r.point.pipe_tolerance <= 0) continue;
    for (const auto& [name, e] : r.pipes) {
      ++s.checked;
      if (std::abs(e.rel()) <= r.point.pipe_tolerance) {
        ++s.within;
      } else {
        char pct[16];
        std::snprintf(pct, sizeof pct, "%+.0f%%", 100 * e.rel());
        s.outside.push_back(r.point.label + " " + name + " " + pct);
      }
    }
  }
  return s;
}

std::vector<std::pair<std::string, std::string>> order_violations(const std::vector<CalibrationResult>& rs) {
  std::vector<std::pair<std::string, std::string>> out;
  for (size_t i = 0; i < rs.size(); ++i) {
    for (size_t j = i + 1; j < rs.size(); ++j) {
      const auto& a = rs[i];
      const auto& b = rs[j];
      if (!a.ran || !b.ran || a.point.group != b.point.group) continue;
      const double margin = a.point.order_margin;
      if (margin < 0) {
        // Ladders and sweeps: each row against the next one.
        if (j != i + 1) continue;
        const bool within_spread = a.task.measured - b.task.measured < b.point.explained_order_gap * a.task.measured;
        if (b.task.measured <= a.task.measured && b.task.simulated > a.task.simulated && !within_spread)
          out.emplace_back(a.point.label, b.point.label);
        continue;
      }
      const auto& slow = a.task.measured >= b.task.measured ? a : b;
      const auto& fast = a.task.measured >= b.task.measured ? b : a;
      if (slow.task.measured > fast.task.measured * (1 + margin) && fast.task.simulated > slow.task.simulated)
        out.emplace_back(slow.point.label, fast.point.label);
    }
  }
  return out;
}

}  // namespace aoc::sim
