#include "sim/sensitivity.h"

#include <algorithm>

namespace aoc::sim {
namespace {

SocKnob field(const std::string& key, double Soc::*member, double factor = 1.1) {
  return {key, factor, [member](Soc& s, double f) { s.*member *= f; }};
}

}  // namespace

std::vector<SocKnob> soc_knobs(const Soc& soc) {
  std::vector<SocKnob> k = {
      field("bandwidth.hbm_read_gbps", &Soc::hbm_read_bytes_per_cycle),
      field("bandwidth.l2_write_gbps", &Soc::l2_write_bytes_per_cycle),
      // A capacity share of at most 1: moved down.
      field("bandwidth.rw_mix_efficiency", &Soc::rw_mix_efficiency, 0.9),
      field("ub_banks.conflict_cycles_per_beat", &Soc::bank_conflict_cycles_per_beat),
      field("ub_banks.dma_vector_stall", &Soc::dma_vector_bank_stall, 0.9),
      field("launch.dispatch_us", &Soc::launch_dispatch_us),
      field("launch.block_dispatch_us", &Soc::launch_block_dispatch_us),
      field("launch.block_start_cycles", &Soc::launch_block_start_cycles),
      field("launch.block_end_cycles", &Soc::launch_block_end_cycles),
      field("launch.end_response_us", &Soc::launch_end_response_us),
      field("launch.per_wave_us", &Soc::launch_per_wave_us),
      field("scalar.cycles_per_op", &Soc::scalar_cycles_per_op),
      field("scalar.cycles_per_block", &Soc::scalar_cycles_per_block),
      field("scalar.access_cycles", &Soc::scalar_access_cycles),
      field("scalar.issue_cycles", &Soc::issue_cycles),
      field("sync.set_flag_cycles", &Soc::set_flag_cycles),
      field("sync.wait_flag_cycles", &Soc::wait_flag_cycles),
      field("sync.barrier_cycles", &Soc::barrier_cycles),
      field("sync.sync_all_cycles", &Soc::sync_all_cycles),
      field("vector.floor_cycles", &Soc::vector_floor_cycles),
      field("vector.bytes_per_cycle", &Soc::vector_bytes_per_cycle),
      field("cube.mmad_overhead_cycles", &Soc::mmad_overhead_cycles),
  };
  // Efficiencies below 1 move down, as shares of the 512 B-aligned rate.
  k.push_back({"burst.alignment_efficiency", 0.9, [](Soc& s, double f) {
                 for (auto& [align, eff] : s.alignment_efficiency)
                   if (eff < 1) eff *= f;
               }});
  k.push_back({"vector.table (every curve)", 1.1, [](Soc& s, double f) {
                 for (auto& [op, curve] : s.vector_costs)
                   for (auto& pt : curve.points) pt.second *= f;
               }});
  for (const auto& [name, path] : soc.paths) {
    const std::string p = "paths." + name + ".";
    auto on = [name](double DmaPath::*m) {
      return [name, m](Soc& s, double f) { s.paths.at(name).*m *= f; };
    };
    k.push_back({p + "bytes_per_cycle", 1.1, on(&DmaPath::core_bytes_per_cycle)});
    k.push_back({p + "issue_cycles", 1.1, on(&DmaPath::issue_cycles)});
    k.push_back({p + "latency_cycles", 1.1, on(&DmaPath::latency_cycles)});
    if (path.burst_cycles > 0) k.push_back({p + "burst_cycles", 1.1, on(&DmaPath::burst_cycles)});
  }
  return k;
}

}  // namespace aoc::sim
