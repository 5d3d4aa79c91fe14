// The SoC model: every number the simulator uses, loaded from socs/<name>.toml.
// The engine and cost model read only this struct, so refitting the model to new
// measurements means editing a data file, never the code.
#pragma once
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "aoc/core_state.h"
#include "aoc/trace.h"

namespace aoc::sim {

// A piecewise-linear curve through measured (x, y) points, sorted by x. Below the
// first point it scales down proportionally towards (0, first y's floor); beyond
// the last point it extends with the slope of the last segment.
struct Curve {
  std::vector<std::pair<double, double>> points;
  double at(double x) const;
  // Slope of the last segment: the steady-state cost per unit of x.
  double asymptotic_slope() const;
  // Lowest cost per unit of x anywhere on the curve (at(x) >= this * x for every x > 0):
  // what a hardware lower bound may charge without ever exceeding the simulated cost.
  double min_cost_per_unit() const;
  bool empty() const { return points.empty(); }
};

// Data movement parameters of one path (e.g. GM->UB on MTE2).
struct DmaPath {
  double core_bytes_per_cycle = 0;  // per-core cap of this path
  double issue_cycles = 0;          // fixed pipe occupancy per instruction
  double burst_cycles = 0;          // at most one burst started per this many cycles (0: no limit)
  double latency_cycles = 0;        // completion latency after the pipe has pushed the last byte
};

struct Soc {
  std::string name;
  std::string source_path;  // the TOML file it came from

  // Chip organisation.
  int aiv_cores = 0;
  int aic_cores = 0;
  double clock_ghz = 0;
  aoc::CoreLimits limits;
  uint64_t l2_bytes = 0;
  uint64_t hbm_bytes = 0;

  uint32_t l2_line_bytes = 512;  // allocation unit of the L2 model

  // Shared bandwidths, bytes per cycle for the whole chip.
  double hbm_read_bytes_per_cycle = 0;   // HBM: L2 read misses and write-backs of evicted dirty lines
  double l2_write_bytes_per_cycle = 0;   // L2: writes (they land in L2) and read hits
  double rw_mix_efficiency = 1;          // HBM capacity factor while reads and write-backs overlap

  // Paths, keyed by the name used in the SoC file: gm_to_ub, ub_to_gm, gm_to_l1, l1_to_gm,
  // l1_to_l0a, l1_to_l0b, l0c_to_gm, l0c_to_l1, ub_to_ub, ub_to_l1, l1_to_bt, l1_to_fb.
  std::map<std::string, DmaPath> paths;
  // GM-side burst rules: efficiency by the largest power-of-two alignment of a burst's
  // start address and length (bytes -> efficiency, step function up to 512).
  std::vector<std::pair<double, double>> alignment_efficiency;
  uint32_t burst_granule_bytes = 32;  // each burst is rounded up to this

  // UB bank layout (davinci-hardware.md section 2).
  uint32_t ub_block_bytes = 32;
  uint32_t ub_bank_groups = 16;
  uint32_t ub_bank_id_shift = 16;  // address bit where bank_id starts
  double bank_conflict_cycles_per_beat = 1;
  // Share of a DMA transfer's UB-side progress lost while a vector instruction of the same core
  // accesses one of the banks it reads or writes (UB ports arbitrate per bank; 0: no contention).
  double dma_vector_bank_stall = 0;

  // Starting and ending a task (docs/simulator.md, "Launch"). Scheduler-side times are in us,
  // work on the cores in cycles (it shows in the cores' own time, as msprof counts it).
  double launch_dispatch_us = 0;        // task start until the first block starts on its core
  double launch_block_dispatch_us = 0;  // each further block of the first wave starts this much later
  double launch_block_start_cycles = 0; // per block, on its scalar unit: entry, tiling copy from GM, first misses
  double launch_block_end_cycles = 0;   // per block, on its scalar unit after its pipes drain: cache clean, end signal
  double launch_end_response_us = 0;    // last block's end until the task's end is reported
  double launch_per_wave_us = 0;        // gap before a block of a later wave starts on a freed core

  // Scalar unit.
  double scalar_cycles_per_op = 1;
  double scalar_cycles_per_block = 1;  // one executed basic block of kernel code (KernelScalar)
  double scalar_access_cycles = 1;  // one GetValue / SetValue
  double issue_cycles = 1;          // scalar cost of dispatching one instruction
  uint32_t queue_depth = 32;        // per-pipe instruction queue

  // Synchronisation.
  double set_flag_cycles = 1;
  double wait_flag_cycles = 1;
  double barrier_cycles = 1;
  double sync_all_cycles = 0;

  // Vector unit: (op.dtype[.dst_dtype]) -> (elements -> cycles).
  std::map<std::string, Curve> vector_costs;
  double vector_bytes_per_cycle = 256;  // fallback rate for ops without a table, and T_HW peak
  double vector_floor_cycles = 4;

  // Cube unit: MACs per cycle by input dtype name ("f16", "bf16", "i8", "f32").
  std::map<std::string, double> cube_macs_per_cycle;
  double mmad_overhead_cycles = 0;

  double cycles_to_us(double cycles) const { return cycles / (clock_ghz * 1e3); }
  double us_to_cycles(double us) const { return us * clock_ghz * 1e3; }
  const DmaPath& path(const std::string& key) const;
};

// Short lowercase name of a dtype as used in the SoC file ("f16", "f32", "i8" ...).
const char* dtype_name(aoc::DType t);
uint32_t dtype_bytes(aoc::DType t);

// Loads socs/<name>.toml. `name_or_path` is either a path to a .toml file or a SoC name,
// searched in soc_search_dirs(). Fails with an
// aoc::Error listing the available SoCs when nothing matches.
Soc load_soc(const std::string& name_or_path);

// Directories searched for SoC names, in order, all absolute: $ASCENDOPT_HOME/socs, then
// <prefix>/share/ascendopt/socs beside the running executable's bin/, then the source tree's socs/.
std::vector<std::filesystem::path> soc_search_dirs();

// Names of the SoCs found in the search path (sorted).
std::vector<std::string> available_socs();

}  // namespace aoc::sim
