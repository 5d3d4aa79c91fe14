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
// Empty when `f` and the own functions it calls use local memory only through queues (or TBuf
// tensors no copy of theirs touches); else the first reason they do not.
std::string queue_only_stage(const KernelModel& m, const Function& f);
// A DataCopy or DataCopyPad of the AscendC API.
bool is_copy(const Call& c);
// A synchronisation call: PipeBarrier, SetFlag or WaitFlag of the AscendC API.
bool is_sync(const Call& c);
// `stmt` for the tile `index` instead of the loop variable `var`: an argument that is the
// variable alone becomes `index`, any other use `(index)`.
std::string for_tile(const std::string& stmt, const std::string& var, const std::string& index);
// The indentation of the statements inside loop `l`'s body.
std::string body_indent(const KernelModel& m, const Loop& l);

}  // namespace aoc::rewrite
