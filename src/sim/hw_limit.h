// Hardware-anchored lower bound T_HW (evaluation.md section 2): every unit at its peak
// rate over the whole chip, perfect overlap, no launch overhead. With the work of a case
// fixed, min over implementation choices of max over units reduces to max over units of
// work / peak.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "sim/engine.h"
#include "sim/soc.h"

namespace aoc::sim {

struct UnitWork {
  double cube_flops = 0;     // 2 * MACs, in fp16-equivalent (slower dtypes scaled up)
  double vector_bytes = 0;   // bytes at full vector rate (slower instructions scaled up)
  double mte1_bytes = 0;
  double mte2_bytes = 0;     // GM -> UB/L1/L0 bytes
  // The MTE2 bytes that must come from HBM at the least: the distinct GM bytes read (a
  // re-read may hit in L2) plus every byte of reads that bypass L2. Below 0: all of mte2_bytes.
  double mte2_hbm_bytes = -1;
  double mte3_bytes = 0;     // UB/L1 -> GM bytes
  double fixpipe_bytes = 0;
};

struct HwLimit {
  double time_us = 0;
  std::string bound;                     // "cube", "vector", "mte1", "mte2", "mte3", "fixpipe", or
                                         // "none" when no unit has work (a scalar-only kernel)
  std::map<std::string, double> unit_us; // per unit work / peak
};

HwLimit hw_limit(const Soc& soc, const UnitWork& w);
// Sums the work recorded in the traces of all blocks of a launch.
UnitWork work_from_traces(const Soc& soc, const std::vector<BlockTrace>& blocks);

}  // namespace aoc::sim
