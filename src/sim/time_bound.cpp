#include "sim/time_bound.h"

#include <algorithm>
#include <cstdio>

namespace aoc::sim {

namespace {
bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}
}  // namespace

double peak_gm_write_bytes_per_cycle(const Soc& soc) {
  // Every core could drive every path into GM at once (an over-estimate, so a lower time).
  const double cores = double(soc.aiv_cores + soc.aic_cores);
  double per_core_paths = 0;
  for (const auto& [name, path] : soc.paths)
    if (ends_with(name, "_to_gm")) per_core_paths += path.core_bytes_per_cycle;
  double dma = cores * per_core_paths;
  if (soc.l2_write_bytes_per_cycle > 0) dma = std::min(dma, soc.l2_write_bytes_per_cycle);
  // A scalar access is charged scalar_access_cycles (GetValue/SetValue) or scalar_cycles_per_op
  // (other scalar records), whichever a forged or honest record gets, so the cheaper of the two.
  const double scalar_cycles = std::min(soc.scalar_access_cycles, soc.scalar_cycles_per_op);
  const double scalar = scalar_cycles > 0 ? cores * kMaxScalarAccessBytes / scalar_cycles : 0;
  return dma + scalar;
}

WriteBound write_bound(const Soc& soc, double written_bytes) {
  WriteBound b;
  // The first byte moves after block 0 started and did its start work; the last one before the
  // last block's end work; the scheduler's dispatch and end response lie outside both.
  b.fixed_us = soc.launch_dispatch_us + soc.launch_end_response_us +
               soc.cycles_to_us(soc.launch_block_start_cycles + soc.launch_block_end_cycles);
  b.bytes_per_cycle = peak_gm_write_bytes_per_cycle(soc);
  b.written_bytes = written_bytes;
  b.time_us = b.fixed_us + (b.bytes_per_cycle > 0 ? soc.cycles_to_us(written_bytes / b.bytes_per_cycle) : 0);
  return b;
}

std::string WriteBound::formula() const {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%.3f us of launch + %.0f bytes written at %.1f bytes/cycle", fixed_us,
                written_bytes, bytes_per_cycle);
  return buf;
}

}  // namespace aoc::sim
