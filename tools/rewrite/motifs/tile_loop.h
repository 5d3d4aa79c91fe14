// Tile loops: a loop of a kernel function whose body runs the kernel's own stage functions
// (CopyIn / Compute / CopyOut ...), and whether those stages pass local tensors to each other
// only through queues (EnQue/DeQue and AllocTensor/FreeTensor carry the cross-pipe
// synchronisation), so that no other synchronisation between them orders anything.
#pragma once
#include <string>
#include <vector>

#include "kernel_model.h"

namespace aoc::rewrite {

struct TileLoop {
  int loop = -1;                     // index into KernelModel::loops
  std::vector<const Call*> stages;   // calls of the operator's own functions as statements, in source order
  std::vector<const Call*> syncs;    // PipeBarrier and SetFlag/WaitFlag calls directly in the loop, in order
  bool queue_ordered = false;        // see queue_ordered()
  std::string why_not;               // what breaks queue ordering, when it does not hold
};

// The operator's own function a call runs (class methods through the implicit or explicit
// this), null for API calls and calls on other objects.
const Function* own_function(const KernelModel& m, const Call& c);
// Loops holding at least one stage call, outermost first.
std::vector<TileLoop> tile_loops(const KernelModel& m);
// A synchronisation call: PipeBarrier, SetFlag or WaitFlag of the AscendC API.
bool is_sync(const Call& c);

}  // namespace aoc::rewrite
