#include "sim/hw_limit.h"

#include <algorithm>
#include <utility>

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
  // L2 serves read hits at its own rate; only the bytes that must come from HBM are bound
  // by HBM's. Without a count of those, every byte is (the former, stricter bound).
  const double l2_read = soc.l2_write_bytes_per_cycle > 0 ? soc.l2_write_bytes_per_cycle : soc.hbm_read_bytes_per_cycle;
  const double hbm_bytes = w.mte2_hbm_bytes < 0 ? w.mte2_bytes : std::min(w.mte2_hbm_bytes, w.mte2_bytes);
  double mte3 = std::min(soc.l2_write_bytes_per_cycle, soc.aiv_cores * path_rate(soc, "ub_to_gm"));
  double fix = soc.aic_cores * path_rate(soc, "l0c_to_gm");
  HwLimit h;
  auto cycles = [](double work, double peak) { return (work > 0 && peak > 0) ? work / peak : 0.0; };
  auto unit_cycles = [&](const char* name, double c) {
    const double us = soc.cycles_to_us(c);
    h.unit_us[name] = us;
    if (us > h.time_us) {  // strictly: the first unit wins ties, a stable label
      h.time_us = us;
      h.bound = name;
    }
  };
  auto unit = [&](const char* name, double work, double peak) { unit_cycles(name, cycles(work, peak)); };
  unit("cube", w.cube_flops, cube);
  unit("vector", w.vector_bytes, vector);
  unit("mte1", w.mte1_bytes, mte1);
  unit_cycles("mte2", std::max(cycles(w.mte2_bytes, std::min(mte2_cores, l2_read)),
                                cycles(hbm_bytes, soc.hbm_read_bytes_per_cycle)));
  unit("mte3", w.mte3_bytes, mte3);
  unit("fixpipe", w.fixpipe_bytes, fix);
  if (h.bound.empty()) h.bound = "none";  // no unit has work: scalar code only, T_HW 0
  return h;
}

namespace {

// The GM bytes an MTE2 copy reads, as the engine's L2 model sees them: one range per burst
// (one in all when the bursts are contiguous); a copy that bypasses L2 counts whole.
void note_gm_read(const TraceRecord& r, std::vector<std::pair<uint64_t, uint64_t>>& ranges, double& bypass_bytes) {
  if (r.nreads == 0 || r.reads[0].space != Space::GM || r.bytes == 0) {
    bypass_bytes += double(r.bytes);  // no GM range to dedupe: count every byte
    return;
  }
  if (r.cache_mode == kCacheModeDisable) {
    bypass_bytes += double(r.bytes);
    return;
  }
  const uint64_t n = std::max<uint32_t>(r.bursts, 1);
  const uint64_t len = r.burst_bytes ? r.burst_bytes : r.bytes / n;
  const uint64_t lo = r.reads[0].lo;
  if (r.src_gap == 0) {
    ranges.emplace_back(lo, lo + n * len);
    return;
  }
  for (uint64_t i = 0; i < n; ++i) ranges.emplace_back(lo + i * (len + r.src_gap), lo + i * (len + r.src_gap) + len);
}

// Bytes covered by the union of [lo, hi) ranges.
double union_bytes(std::vector<std::pair<uint64_t, uint64_t>>& ranges) {
  std::sort(ranges.begin(), ranges.end());
  double total = 0;
  uint64_t lo = 0, hi = 0;
  bool open = false;
  for (const auto& [a, b] : ranges) {
    if (open && a <= hi) {
      hi = std::max(hi, b);
      continue;
    }
    if (open) total += double(hi - lo);
    lo = a;
    hi = b;
    open = true;
  }
  if (open) total += double(hi - lo);
  return total;
}

}  // namespace

UnitWork work_from_traces(const Soc& soc, const std::vector<BlockTrace>& blocks) {
  UnitWork w;
  std::vector<std::pair<uint64_t, uint64_t>> gm_reads;  // GM source ranges of MTE2 copies through L2
  double bypass_bytes = 0;                              // MTE2 bytes read around L2
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
          case Pipe::MTE2:
            w.mte2_bytes += bytes;
            note_gm_read(r, gm_reads, bypass_bytes);
            break;
          case Pipe::MTE3: w.mte3_bytes += bytes; break;
          case Pipe::FIX: w.fixpipe_bytes += bytes; break;
          case Pipe::V: w.vector_bytes += bytes; break;
          default: break;
        }
      }
    }
  }
  w.mte2_hbm_bytes = union_bytes(gm_reads) + bypass_bytes;
  return w;
}

}  // namespace aoc::sim
