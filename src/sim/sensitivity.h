// Sensitivity of the calibration rows to the SoC parameters: each parameter moved by 10 %,
// every recorded calibration trace re-timed, and the relative move of each row's Task
// Duration. Says which rows a parameter's fit rests on.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "sim/soc.h"

namespace aoc::sim {

// One numeric SoC parameter, named by its key in the SoC file, with a way to scale it.
struct SocKnob {
  std::string key;                           // "launch.block_start_cycles", "paths.gm_to_ub.latency_cycles" ...
  double factor = 1.1;                       // the move applied (0.9 for shares bounded by 1)
  std::function<void(Soc&, double)> scale;   // multiplies the parameter by the factor
};

// The SoC's parameters that a timing can depend on (chip organisation and capacities excluded).
std::vector<SocKnob> soc_knobs(const Soc& soc);

// A row moves "materially" when its Task Duration changes by at least this share.
constexpr double kMaterialMove = 0.01;

}  // namespace aoc::sim
