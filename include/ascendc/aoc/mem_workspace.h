// Workspace accessors. Contract with the launcher: the `workspace` argument a kernel
// receives already points at the user part, so GetUserWorkspace returns it
// unchanged; the system part, if a kernel needs one, is registered per core with
// SetSysWorkSpace.
#pragma once
#include <cstdint>

#include "aoc/macros.h"

namespace aoc {
inline thread_local GM_ADDR sys_workspace = nullptr;
}  // namespace aoc

namespace AscendC {

inline GM_ADDR GetUserWorkspace(GM_ADDR workspace) { return workspace; }
inline void SetSysWorkSpace(GM_ADDR workspace) { aoc::sys_workspace = workspace; }
inline GM_ADDR GetSysWorkSpacePtr() { return aoc::sys_workspace; }

}  // namespace AscendC
