#include "search/profile_moves.h"

#include <algorithm>

namespace aoc::search {

namespace {

// Below this busy ratio of the busiest pipe, transfers and compute are not overlapping.
constexpr double kPoorOverlap = 0.6;
// Below this share of the Task Duration spent in the cores' own work, the launch of the
// cores (a fixed cost per core on the SoC) is what the kernel pays for.
constexpr double kLaunchBound = 0.5;

double field(const CaseTiming& c, const std::string& name) {
  const auto it = c.profile.find(name);
  return it == c.profile.end() ? 0.0 : it->second;
}

// The point with dimension `d` one step up (+1) or down (-1); false at the edge.
bool step(const Space& s, Point& p, size_t d, int dir) {
  if (dir > 0 && p[d] + 1 < s.dims[d].values.size()) {
    ++p[d];
    return true;
  }
  if (dir < 0 && p[d] > 0) {
    --p[d];
    return true;
  }
  return false;
}

void add_role_moves(const Space& s, const Point& parent, Role role, int dir, const std::string& why,
                    std::vector<Move>& out) {
  for (size_t d = 0; d < s.dims.size(); ++d) {
    if (s.dims[d].role != role) continue;
    Point p = parent;
    if (step(s, p, d, dir)) out.push_back({why + " (" + s.dims[d].name + (dir > 0 ? " up)" : " down)"), p});
  }
}

}  // namespace

std::vector<Move> profile_moves(const Space& s, const Evaluation& parent) {
  std::vector<Move> out;
  if (!parent.valid || parent.cases.empty() || parent.point.size() != s.dims.size()) return out;
  // The slowest case dominates what a change can win.
  const CaseTiming& c = *std::max_element(parent.cases.begin(), parent.cases.end(),
                                          [](const CaseTiming& a, const CaseTiming& b) { return a.sim_us < b.sim_us; });
  const int cores_dim = s.find("cores");
  const uint32_t cores_now = cores_dim >= 0 ? static_cast<uint32_t>(s.dims[cores_dim].values[parent.point[cores_dim]])
                                            : s.soc_cores;
  const double mte2 = field(c, "aiv_mte2_ratio"), mte3 = field(c, "aiv_mte3_ratio");
  const double vec = field(c, "aiv_vec_ratio"), scalar = field(c, "aiv_scalar_ratio");
  const double busiest = std::max({mte2, mte3, vec, scalar});

  const double core_us = field(c, "aiv_time");
  if (cores_dim >= 0 && core_us > 0 && core_us < kLaunchBound * c.sim_us) {
    // Launch-bound: too little work per core to pay for starting it. Half the cores (the
    // largest value at most half the current one) doubles the work per core.
    const auto& vals = s.dims[static_cast<size_t>(cores_dim)].values;
    Point p = parent.point;
    for (uint32_t v = 0; v < vals.size(); ++v)
      if (vals[v] <= cores_now / 2) p[static_cast<size_t>(cores_dim)] = v;
    if (p != parent.point) out.push_back({"launch-bound: half the cores", p});
    p = parent.point;
    if (step(s, p, static_cast<size_t>(cores_dim), -1)) out.push_back({"launch-bound: fewer cores", p});
  } else if (c.block_dim < cores_now) {
    // Idle cores: a finer split spreads the work over more of them.
    for (size_t d = 0; d < s.dims.size(); ++d) {
      if (s.dims[d].kind != DimKind::Knob || s.dims[d].role != Role::CoreSplit) continue;
      Point p = parent.point;
      if (step(s, p, d, -1)) out.push_back({"idle cores: finer split (" + s.dims[d].name + " down)", p});
    }
  } else if (cores_dim >= 0) {
    Point p = parent.point;
    if (step(s, p, static_cast<size_t>(cores_dim), +1)) out.push_back({"all cores busy: more cores", p});
  }
  if (c.bound_pipe == "aiv_mte2_time") add_role_moves(s, parent.point, Role::TileSize, +1, "mte2-bound: longer copies", out);
  if (c.bound_pipe == "aiv_scalar_time")
    add_role_moves(s, parent.point, Role::TileSize, +1, "scalar-bound: fewer iterations", out);
  if (busiest < kPoorOverlap) {
    const size_t before = out.size();
    add_role_moves(s, parent.point, Role::BufferCount, +1, "poor overlap: more buffers", out);
    if (out.size() == before) add_role_moves(s, parent.point, Role::TileSize, +1, "poor overlap: longer tiles", out);
  }
  if (c.bound_pipe == "aiv_mte3_time" || c.bound_pipe == "aiv_vec_time") {
    // Long single tiles leave no room to overlap the last copy-out: try shorter ones.
    add_role_moves(s, parent.point, Role::TileSize, -1, c.bound_pipe.substr(4, 4) + "-bound: shorter tiles", out);
  }
  return out;
}

}  // namespace aoc::search
