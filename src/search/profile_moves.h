// Profile-guided moves: from an evaluated parent's profile (its slowest tuning case),
// the coordinate changes an engineer would try first.
//   MTE2-bound with short copies -> longer tiles (TileSize knobs up, more UB);
//   poor overlap (no pipe busy most of the time) -> more buffers (BufferCount up), else
//     longer tiles;
//   idle cores (blockDim below the cores available) -> more cores, a finer core split;
//   scalar-bound -> fewer loop iterations: longer tiles.
#pragma once
#include <string>
#include <vector>

#include "search/evaluation.h"
#include "search/rng.h"
#include "search/space.h"

namespace aoc::search {

struct Move {
  std::string why;  // "mte2-bound: longer tiles"
  Point point;
};

// Every move the profile suggests that lands on a different point (may be empty).
std::vector<Move> profile_moves(const Space& space, const Evaluation& parent);

}  // namespace aoc::search
