// The launches of a kernel program (chevron launches, aoc/chevron.h), handed one by one to the
// observer the program host installs, and the first failure per stream for
// aclrtSynchronizeStream.
#pragma once
#include <functional>
#include <string>

#include "aoc/launch.h"

namespace aoc::runtime {

// `kernel` names the launched function (demangled, or its address when it has no symbol).
using LaunchObserver = std::function<void(const std::string& kernel, uint32_t block_dim, const LaunchResult& run)>;
void set_launch_observer(LaunchObserver observer);

// The first failed launch on `stream` since the last call, as its error message ("" when none),
// and forgets it.
std::string take_stream_error(void* stream);

}  // namespace aoc::runtime
