#include "sim/soc.h"

#include <toml++/toml.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>

#include "sim/sim_error.h"
#include "sim/soc_fields.h"

namespace aoc::sim {
namespace fs = std::filesystem;

double Curve::at(double x) const {
  if (points.empty()) return 0;
  if (x <= points.front().first) {
    // Fewer elements than the smallest measurement still cost the measured floor.
    return points.front().second;
  }
  for (size_t i = 1; i < points.size(); ++i) {
    if (x <= points[i].first) {
      auto [x0, y0] = points[i - 1];
      auto [x1, y1] = points[i];
      return y0 + (y1 - y0) * (x - x0) / (x1 - x0);
    }
  }
  return points.back().second + asymptotic_slope() * (x - points.back().first);
}

double Curve::asymptotic_slope() const {
  if (points.size() < 2) return points.empty() ? 0 : points[0].second / std::max(points[0].first, 1.0);
  auto [x0, y0] = points[points.size() - 2];
  auto [x1, y1] = points.back();
  return (y1 - y0) / (x1 - x0);
}

double Curve::min_cost_per_unit() const {
  // On a linear segment at(x)/x is monotonic, so its minimum is at a point or in the limit
  // of the extension (the last slope).
  double best = asymptotic_slope();
  for (const auto& [x, y] : points)
    if (x > 0) best = std::min(best, y / x);
  return std::max(best, 0.0);
}

const DmaPath& Soc::path(const std::string& key) const {
  auto it = paths.find(key);
  if (it == paths.end()) throw SimError("SoC " + name + " (" + source_path + ") has no [paths." + key + "] entry");
  return it->second;
}

const char* dtype_name(aoc::DType t) {
  switch (t) {
    case DType::F16: return "f16";
    case DType::BF16: return "bf16";
    case DType::F32: return "f32";
    case DType::F64: return "f64";
    case DType::I8: return "i8";
    case DType::U8: return "u8";
    case DType::I16: return "i16";
    case DType::U16: return "u16";
    case DType::I32: return "i32";
    case DType::U32: return "u32";
    case DType::I64: return "i64";
    case DType::U64: return "u64";
    case DType::B1: return "b1";
    case DType::None: break;
  }
  return "none";
}

uint32_t dtype_bytes(aoc::DType t) {
  switch (t) {
    case DType::F16: case DType::BF16: case DType::I16: case DType::U16: return 2;
    case DType::F32: case DType::I32: case DType::U32: return 4;
    case DType::F64: case DType::I64: case DType::U64: return 8;
    case DType::I8: case DType::U8: case DType::B1: return 1;
    case DType::None: break;
  }
  return 1;
}

namespace {

// The directory holding the running executable (empty when the system cannot say).
fs::path executable_dir() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe.parent_path();
}

}  // namespace

std::vector<fs::path> soc_search_dirs() {
  // Every entry is absolute: the sandboxed harness runs in its own working directory, so a
  // relative directory (what __FILE__ becomes when a compiler cache rewrites paths relative
  // to a base directory) would name nothing there.
  std::vector<fs::path> dirs;
  if (const char* home = std::getenv("ASCENDOPT_HOME"); home != nullptr && *home != '\0')
    dirs.emplace_back(fs::absolute(fs::path(home) / "socs"));
  // An installed tree keeps the SoC files in <prefix>/share/ascendopt/socs beside <prefix>/bin.
  if (fs::path exe = executable_dir(); !exe.empty())
    dirs.emplace_back((exe.parent_path() / "share" / "ascendopt" / "socs").lexically_normal());
  // The source tree this library was built from; CMake passes its absolute path.
  dirs.emplace_back(fs::path(AOC_SOURCE_DIR) / "socs");
  return dirs;
}

namespace {

std::vector<std::pair<double, double>> need_points(const toml::node* node,
                                                   const std::string& what, const std::string& file) {
  const auto* arr = node ? node->as_array() : nullptr;
  if (!arr || arr->empty()) throw SimError(file + ": '" + what + "' must be a non-empty array of [x, y] pairs");
  std::vector<std::pair<double, double>> pts;
  for (const auto& e : *arr) {
    const auto* pair = e.as_array();
    if (!pair || pair->size() != 2) throw SimError(file + ": '" + what + "' entries must be [x, y] pairs");
    auto x = (*pair)[0].value<double>();
    auto y = (*pair)[1].value<double>();
    if (!x || !y) throw SimError(file + ": '" + what + "' entries must be numbers");
    pts.emplace_back(*x, *y);
  }
  std::sort(pts.begin(), pts.end());
  return pts;
}

toml::table parse_file(const fs::path& p) {
  try {
    return toml::parse_file(p.string());
  } catch (const toml::parse_error& e) {
    std::ostringstream os;
    os << p.string() << ":" << e.source().begin.line << ": " << e.description();
    throw SimError(os.str());
  }
}

void load_vector_table(Soc& soc, const fs::path& file) {
  toml::table t = parse_file(file);
  const auto* ops = t["ops"].as_table();
  if (!ops) throw SimError(file.string() + ": missing [ops] table");
  for (const auto& [key, node] : *ops) {
    std::string k(key.str());
    soc.vector_costs[k].points = need_points(&node, "ops." + k, file.string());
  }
}

Soc parse_soc(const fs::path& file) {
  toml::table t = parse_file(file);
  const std::string f = file.string();
  if (t.at_path("launch.base_us") || t.at_path("launch.per_core_us"))
    throw SimError(f + ": launch.base_us and launch.per_core_us are replaced by launch.dispatch_us, "
                       "block_dispatch_us, block_start_cycles, block_end_cycles and end_response_us "
                       "(docs/simulator.md, \"Launch\"); copy the [launch] table of socs/Ascend910B1.toml");
  Soc s;
  s.source_path = f;
  read_soc_fields(t, f, s);

  const auto* paths = t["paths"].as_table();
  if (!paths) throw SimError(f + ": missing [paths] table");
  for (const auto& [key, node] : *paths) {
    std::string k(key.str());
    const auto* pt = node.as_table();
    if (!pt) throw SimError(f + ": paths." + k + " must be a table");
    s.paths[k] = read_dma_path(*pt, k, f);
  }
  s.alignment_efficiency = need_points(t.at_path("burst.alignment_efficiency").node(), "burst.alignment_efficiency", f);

  auto table = need_string(t, "vector.table", f);
  fs::path table_path = fs::path(table).is_absolute() ? fs::path(table) : file.parent_path() / table;
  load_vector_table(s, table_path);

  const auto* cube = t.at_path("cube.macs_per_cycle").as_table();
  if (!cube) throw SimError(f + ": missing [cube.macs_per_cycle] table");
  for (const auto& [key, node] : *cube) {
    auto v = node.value<double>();
    if (!v || *v <= 0) throw SimError(f + ": cube.macs_per_cycle." + std::string(key.str()) + " must be a positive number");
    s.cube_macs_per_cycle[std::string(key.str())] = *v;
  }
  return s;
}

bool looks_like_path(const std::string& s) {
  return s.find('/') != std::string::npos || (s.size() > 5 && s.substr(s.size() - 5) == ".toml");
}

}  // namespace

std::vector<std::string> available_socs() {
  std::set<std::string> names;
  for (const auto& d : soc_search_dirs()) {
    std::error_code ec;
    if (!fs::is_directory(d, ec)) continue;
    for (const auto& e : fs::directory_iterator(d, ec)) {
      if (e.path().extension() != ".toml") continue;
      // Only SoC files carry a [chip] table; shared cost tables sit beside them.
      try {
        auto t = toml::parse_file(e.path().string());
        if (t.contains("chip")) names.insert(e.path().stem().string());
      } catch (const toml::parse_error&) {
      }
    }
  }
  return {names.begin(), names.end()};
}

Soc load_soc(const std::string& name_or_path) {
  if (looks_like_path(name_or_path)) {
    if (!fs::exists(name_or_path)) throw SimError("SoC file not found: " + name_or_path);
    return parse_soc(name_or_path);
  }
  std::vector<fs::path> dirs = soc_search_dirs();
  for (const auto& d : dirs) {
    fs::path p = d / (name_or_path + ".toml");
    std::error_code ec;
    if (fs::exists(p, ec)) return parse_soc(p);
  }
  std::ostringstream os;
  os << "unknown SoC '" << name_or_path << "'. Available:";
  auto names = available_socs();
  if (names.empty()) os << " (none)";
  for (const auto& n : names) os << " " << n;
  os << ". Searched:";
  for (const auto& d : dirs) os << " " << d.string();
  os << " (set ASCENDOPT_HOME, or pass a path to a .toml file)";
  throw SimError(os.str());
}

}  // namespace aoc::sim
