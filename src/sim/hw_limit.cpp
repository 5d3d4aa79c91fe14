#include "sim/hw_limit.h"

#include <algorithm>

#include "sim/cost_model.h"

namespace aoc::sim {
namespace {
double path_rate(const Soc& soc, const char* key) {
  auto it = soc.paths.find(key);
  return it == soc.paths.end() ? 0 : it->second.core_bytes_per_cycle;
}
double fp16_macs_per_cycle(const Soc& soc) {
  auto it = soc.cube_macs_per_cycle.find("f16");
  return it != soc.cube_macs_per_cycle.end() ? it->second : soc.cube_macs_per_cycle.begin()->second;
}
}  // namespace

HwLimit hw_limit(const Soc& soc, const UnitWork& w) {
  // Chip-wide peaks in bytes (or flops) per cycle.
  double cube = soc.aic_cores * fp16_macs_per_cycle(soc) * 2;
  double vector = soc.aiv_cores * soc.vector_bytes_per_cycle;
  double mte1 = soc.aic_cores * path_rate(soc, "l1_to_l0a");
  double mte2_cores = soc.aiv_cores * path_rate(soc, "gm_to_ub") + soc.aic_cores * path_rate(soc, "gm_to_l1");
  double mte2 = std::min(soc.hbm_read_bytes_per_cycle, mte2_cores);
  double mte3 = std::min(soc.l2_write_bytes_per_cycle, soc.aiv_cores * path_rate(soc, "ub_to_gm"));
  double fix = soc.aic_cores * path_rate(soc, "l0c_to_gm");
  HwLimit h;
  auto unit = [&](const char* name, double work, double peak) {
    double us = (work > 0 && peak > 0) ? soc.cycles_to_us(work / peak) : 0;
    h.unit_us[name] = us;
    if (us > h.time_us) {  // strictly: the first unit wins ties, a stable label
      h.time_us = us;
      h.bound = name;
    }
  };
  unit("cube", w.cube_flops, cube);
  unit("vector", w.vector_bytes, vector);
  unit("mte1", w.mte1_bytes, mte1);
  unit("mte2", w.mte2_bytes, mte2);
  unit("mte3", w.mte3_bytes, mte3);
  unit("fixpipe", w.fixpipe_bytes, fix);
  if (h.bound.empty()) h.bound = "none";  // no unit has work: scalar code only, T_HW 0
  return h;
}

UnitWork work_from_traces(const Soc& soc, const std::vector<BlockTrace>& blocks) {
  UnitWork w;
  const double f16_rate = fp16_macs_per_cycle(soc);
  for (const auto& b : blocks) {
    if (!b.trace) continue;
    for (const auto& r : b.trace->records) {
      if (r.kind == RecKind::Compute && r.pipe == Pipe::M) {
        auto it = soc.cube_macs_per_cycle.find(dtype_name(r.dtype));
        double rate = it != soc.cube_macs_per_cycle.end() ? it->second : f16_rate;
        w.cube_flops += 2.0 * double(r.elems) * (f16_rate / rate);
      } else if (r.kind == RecKind::Compute && r.pipe == Pipe::V) {
        w.vector_bytes += vector_ideal_cycles(soc, r) * soc.vector_bytes_per_cycle;
      } else if (r.kind == RecKind::Copy) {
        double bytes = double(r.bytes);
        switch (r.pipe) {
          case Pipe::MTE1: w.mte1_bytes += bytes; break;
          case Pipe::MTE2: w.mte2_bytes += bytes; break;
          case Pipe::MTE3: w.mte3_bytes += bytes; break;
          case Pipe::FIX: w.fixpipe_bytes += bytes; break;
          case Pipe::V: w.vector_bytes += bytes; break;
          default: break;
        }
      }
    }
  }
  return w;
}

}  // namespace aoc::sim
