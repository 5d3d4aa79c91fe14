#include "search/space.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace aoc::search {

namespace {

size_t nearest(const std::vector<int64_t>& v, int64_t x) {
  const auto it = std::lower_bound(v.begin(), v.end(), x);
  if (it == v.end()) return v.size() - 1;
  if (it == v.begin() || *it == x) return static_cast<size_t>(it - v.begin());
  const auto prev = it - 1;
  // Ties go to the smaller value: it asks less of the hardware.
  return static_cast<size_t>((x - *prev <= *it - x ? prev : it) - v.begin());
}

Dimension knob_dimension(const eval::KnobDecl& k) {
  Dimension d;
  d.name = k.name;
  d.kind = DimKind::Knob;
  d.role = k.role >= 0 && k.role <= 4 ? static_cast<Role>(k.role) : Role::Other;
  if (k.is_range) {
    if (k.values.size() != 3) throw std::invalid_argument("knob " + k.name + ": a range needs lo, hi and step");
    const int64_t lo = k.values[0], hi = k.values[1], step = k.values[2];
    if (step <= 0 || lo > hi) throw std::invalid_argument("knob " + k.name + ": empty range");
    const uint64_t n = static_cast<uint64_t>((hi - lo) / step) + 1;
    if (n > kMaxValuesPerDim)
      throw std::invalid_argument("knob " + k.name + ": " + std::to_string(n) + " values (at most " +
                                  std::to_string(kMaxValuesPerDim) + "); use a coarser step");
    for (int64_t v = lo; v <= hi; v += step) d.values.push_back(v);
  } else {
    d.values = k.values;
    std::sort(d.values.begin(), d.values.end());
    d.values.erase(std::unique(d.values.begin(), d.values.end()), d.values.end());
    if (d.values.empty()) throw std::invalid_argument("knob " + k.name + ": no values");
  }
  const auto it = std::find(d.values.begin(), d.values.end(), k.default_value);
  if (it == d.values.end())
    throw std::invalid_argument("knob " + k.name + ": default " + std::to_string(k.default_value) +
                                " is not one of its values");
  d.default_index = static_cast<uint32_t>(it - d.values.begin());
  return d;
}

}  // namespace

Space make_space(const std::vector<eval::KnobDecl>& knobs, const host::PlatformConfig& soc, uint32_t platform_reads) {
  Space s;
  s.soc_cores = soc.separated ? soc.aiv_cores : soc.aic_cores;
  s.soc_ub = soc.ub_bytes;
  if (s.soc_cores == 0 || s.soc_ub < 32) throw std::invalid_argument("the SoC reports no vector cores or no UB");

  Dimension cores{"cores", DimKind::Cores, Role::CoreSplit, {}, 0};
  // Every count up to 8, then steps of 4 and the SoC's own count: fine where it matters.
  for (uint32_t c = 1; c <= s.soc_cores; ++c)
    if (c <= 8 || c % 4 == 0 || c == s.soc_cores) cores.values.push_back(c);
  cores.default_index = static_cast<uint32_t>(cores.values.size() - 1);
  if (platform_reads & eval::kPlatformReadsCores) s.dims.push_back(cores);

  // UB budgets: multiples of 16 KiB from 32 KiB, and the whole UB (32 B aligned by construction).
  Dimension ub{"ub_bytes", DimKind::UbBytes, Role::TileSize, {}, 0};
  for (uint64_t b = 2 * kUbStep; b < s.soc_ub; b += kUbStep) ub.values.push_back(static_cast<int64_t>(b));
  ub.values.push_back(static_cast<int64_t>(s.soc_ub / 32 * 32));
  ub.default_index = static_cast<uint32_t>(ub.values.size() - 1);
  if (platform_reads & eval::kPlatformReadsUb) s.dims.push_back(ub);

  for (const auto& k : knobs) {
    if (k.name == "cores" || k.name == "ub_bytes")
      throw std::invalid_argument("knob name " + k.name + " is reserved for the platform dimensions");
    if (s.find(k.name) >= 0) continue;  // declared by several cases: the first declaration counts
    s.dims.push_back(knob_dimension(k));
  }
  return s;
}

int Space::find(const std::string& name) const {
  for (size_t i = 0; i < dims.size(); ++i)
    if (dims[i].name == name) return static_cast<int>(i);
  return -1;
}

Point Space::defaults() const {
  Point p;
  for (const auto& d : dims) p.push_back(d.default_index);
  return p;
}

uint64_t Space::size() const {
  uint64_t n = 1;
  for (const auto& d : dims) {
    if (n > std::numeric_limits<uint64_t>::max() / d.values.size()) return std::numeric_limits<uint64_t>::max();
    n *= d.values.size();
  }
  return n;
}

std::string Space::check(const Point& p) const {
  if (p.size() != dims.size())
    return "the point has " + std::to_string(p.size()) + " coordinates for " + std::to_string(dims.size()) + " dimensions";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (p[i] >= dims[i].values.size()) return dims[i].name + ": index " + std::to_string(p[i]) + " is out of range";
    const int64_t v = dims[i].values[p[i]];
    if (dims[i].kind == DimKind::Cores && (v < 1 || static_cast<uint64_t>(v) > soc_cores))
      return "cores = " + std::to_string(v) + " is outside 1.." + std::to_string(soc_cores);
    if (dims[i].kind == DimKind::UbBytes && (v < 32 || static_cast<uint64_t>(v) > soc_ub || v % 32 != 0))
      return "ub_bytes = " + std::to_string(v) + " is not a 32 B aligned budget within the SoC's UB";
  }
  return "";
}

std::string Space::key(const Point& p) const {
  std::string s;
  for (size_t i = 0; i < dims.size() && i < p.size(); ++i)
    s += (i ? " " : "") + dims[i].name + "=" + std::to_string(dims[i].values.at(p[i]));
  return s;
}

eval::TuningConfig Space::config(const Point& p) const {
  eval::TuningConfig c;
  for (size_t i = 0; i < dims.size(); ++i) {
    const Dimension& d = dims[i];
    if (p.at(i) == d.default_index) continue;
    const int64_t v = d.values.at(p[i]);
    if (d.kind == DimKind::Cores) c.cores = static_cast<uint32_t>(v);
    else if (d.kind == DimKind::UbBytes) c.ub_bytes = static_cast<uint64_t>(v);
    else c.knobs[d.name] = v;
  }
  return c;
}

Point Space::repair(const eval::TuningConfig& c) const {
  Point p = defaults();
  for (size_t i = 0; i < dims.size(); ++i) {
    const Dimension& d = dims[i];
    if (d.kind == DimKind::Cores && c.cores != 0) p[i] = static_cast<uint32_t>(nearest(d.values, c.cores));
    if (d.kind == DimKind::UbBytes && c.ub_bytes != 0)
      p[i] = static_cast<uint32_t>(nearest(d.values, static_cast<int64_t>(c.ub_bytes)));
    if (d.kind == DimKind::Knob) {
      const auto it = c.knobs.find(d.name);
      if (it != c.knobs.end()) p[i] = static_cast<uint32_t>(nearest(d.values, it->second));
    }
  }
  return p;
}

}  // namespace aoc::search
