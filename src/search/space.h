// The search space of one operator: what the platform reports to its tiling function
// (vector cores, UB bytes, never more than the SoC has) and the knobs the tiling function
// declared through tiling/tuning_knobs.h. A point holds one index per dimension into that
// dimension's sorted list of legal values, so every point the search makes is legal by
// construction; configurations from elsewhere (the repository, a changed operator) are
// repaired onto the nearest legal point.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "aoc/host/platform_config.h"
#include "eval/harness_protocol.h"

namespace aoc::search {

enum class DimKind { Cores, UbBytes, Knob };

// Mirrors tuning::Role in tiling/tuning_knobs.h.
enum class Role : int { Other = 0, TileSize = 1, BufferCount = 2, CoreSplit = 3, TilingKey = 4 };

struct Dimension {
  std::string name;  // "cores", "ub_bytes" or the knob's name
  DimKind kind = DimKind::Knob;
  Role role = Role::Other;
  std::vector<int64_t> values;  // sorted ascending, distinct
  uint32_t default_index = 0;   // the operator's own behaviour
};

using Point = std::vector<uint32_t>;

// Limits on what a space may contain (so a huge declared range cannot explode it).
constexpr size_t kMaxValuesPerDim = 256;
constexpr uint64_t kUbStep = 16 * 1024;  // UB budgets are multiples of this (and of 32 B)

struct Space {
  std::vector<Dimension> dims;
  uint32_t soc_cores = 0;
  uint64_t soc_ub = 0;

  Point defaults() const;
  // Number of points (saturating at UINT64_MAX).
  uint64_t size() const;
  // Canonical text of a point: "cores=48 ub_bytes=196352 tile_cap=0".
  std::string key(const Point& p) const;
  // The configuration the evaluator sends: values equal to the SoC's own numbers or the
  // knob defaults are left out, so the default point is the empty configuration.
  eval::TuningConfig config(const Point& p) const;
  // Nearest legal point to `c` (missing entries take defaults, unknown knobs are dropped).
  Point repair(const eval::TuningConfig& c) const;
  // Why `p` is not a point of this space ("" when it is).
  std::string check(const Point& p) const;
  int find(const std::string& name) const;  // dimension index or -1
};

// Throws std::invalid_argument for a knob whose declaration is unusable (empty domain,
// range with step <= 0 or lo > hi, default outside the domain), naming the knob.
// `platform_reads` (eval::kPlatformReads* bits) says which platform numbers the tiling function
// reads: a core count or UB budget it never reads changes nothing, so it is no dimension.
Space make_space(const std::vector<eval::KnobDecl>& knobs, const host::PlatformConfig& soc,
                 uint32_t platform_reads = eval::kPlatformReadsCores | eval::kPlatformReadsUb);

}  // namespace aoc::search
