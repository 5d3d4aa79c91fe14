// msprof-op-like profile of a simulated launch: Task Duration, per-block core time and
// per-pipe busy time/ratio under msprof's field names, the bound pipe, and writers for
// JSON, op_summary CSV and PipeUtilization CSV.
#pragma once
#include <array>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/engine.h"
#include "sim/soc.h"

namespace aoc::sim {

struct BlockProfile {
  uint32_t block = 0;
  CoreType type = CoreType::AIV;
  double time_us = 0;
  double total_cycles = 0;
  std::map<std::string, double> fields;  // "aiv_vec_time" (us), "aiv_vec_ratio" ...
};

struct Profile {
  std::string soc;
  double task_duration_us = 0;
  double launch_us = 0;
  uint32_t block_dim = 0;
  int waves = 1;
  uint32_t aiv_blocks = 0, aic_blocks = 0;
  // Op-level values: arithmetic mean over the blocks of that core type, as msprof op reports
  // PMU-derived pipe times (it averages the per-core counters of the task).
  std::map<std::string, double> fields;  // aiv_time, aiv_vec_time, aiv_vec_ratio, aic_mac_time ...
  std::string bound_pipe;                // the *_time field with the largest mean, e.g. "aiv_mte2_time"
  std::vector<BlockProfile> blocks;
};

// The msprof prefix and pipe names of each pipe for a core type ("vec", "mac", "mte2" ...);
// nullptr when that pipe does not exist on that core type.
const char* msprof_pipe_name(CoreType t, aoc::Pipe p);

Profile make_profile(const Soc& soc, const SimResult& r);
nlohmann::json to_json(const Profile& p);
// One row, op_summary style: Op Name, Task Duration(us), Block Dim, Task Type, then the fields.
void write_op_summary_csv(std::ostream& os, const Profile& p, const std::string& op_name);
// One row per block, PipeUtilization.csv style.
void write_pipe_utilization_csv(std::ostream& os, const Profile& p);

}  // namespace aoc::sim
