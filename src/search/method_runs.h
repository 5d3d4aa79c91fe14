// The run functions of the registered methods (methods.cpp), one file each.
#pragma once
#include "search/methods.h"

namespace aoc::search {

// Episodes of host search and kernel rewriting under a bandit (episodic.cpp); `host` and
// `kernel` enable the arms, so tune-only and rewrite-only are this with one arm.
void run_episodic(SearchContext& ctx, bool host, bool kernel);
void run_best_of_n(SearchContext& ctx);
void run_random(SearchContext& ctx);
void run_openevolve(SearchContext& ctx);

}  // namespace aoc::search
