// Cost of one trace record on the SoC: fixed cycles for compute, scalar and sync work,
// or a bandwidth-limited transfer for data movement. Pure functions of (Soc, record),
// so the engine stays free of hardware numbers.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "aoc/trace.h"
#include "sim/soc.h"

namespace aoc::sim {

// Shared bandwidth pools a transfer draws from. None = on-chip, limited only by the core's path.
// cost_of() gives GM reads Hbm and GM writes L2; the L2 model (sim/bandwidth.h) then decides per
// transfer (hits and writes draw from L2, misses and write-backs from HBM).
enum class Resource : uint8_t { None = 0, Hbm, L2, Count };

struct InstrCost {
  double cycles = 0;          // fixed pipe occupancy (for transfers: the per-instruction overhead)
  double latency = 0;         // cycles from the end of occupancy until the result is visible
  double bytes = 0;           // transfers: effective bytes pushed through bandwidth (after penalties)
  double core_bytes_per_cycle = 0;
  Resource resource = Resource::None;
};

InstrCost cost_of(const Soc& soc, const aoc::TraceRecord& r);

// The lookups cost_of makes by name (vector curves by op and types, DMA paths by the spaces a
// copy connects), kept for a caller that costs many records of a few kinds: the timing engine,
// which built the same names and searched the SoC's maps for every vector instruction and copy.
// The costs are those of cost_of(soc, r). Holds a reference to `soc`.
class CostLookups {
 public:
  explicit CostLookups(const Soc& soc);
  const Curve* vector_curve(const aoc::TraceRecord& r);
  const DmaPath& path(const aoc::TraceRecord& r);

 private:
  struct CurveEntry {
    const char* op;
    aoc::DType dtype, dst_dtype;
    const Curve* curve;
  };
  static constexpr size_t kMaxCurves = 64;
  const Soc& soc_;
  std::vector<CurveEntry> curves_;
  std::array<const DmaPath*, 64 + 9> paths_;  // by (read space, write space), then by pipe
};
InstrCost cost_of(const Soc& soc, const aoc::TraceRecord& r, CostLookups& lookups);

// Pieces, exposed for tests and for T_HW.
double vector_cycles(const Soc& soc, const aoc::TraceRecord& r);        // table cost + bank conflicts
double vector_table_cycles(const Soc& soc, const aoc::TraceRecord& r);  // table cost only
const Curve* vector_curve(const Soc& soc, const aoc::TraceRecord& r);   // the SoC's curve for the record's op and types, or null
double vector_cycles(const Soc& soc, const aoc::TraceRecord& r, const Curve* curve);        // with its curve looked up
double vector_table_cycles(const Soc& soc, const aoc::TraceRecord& r, const Curve* curve);
double vector_ideal_cycles(const Soc& soc, const aoc::TraceRecord& r);  // lowest cost per element of its curve, no floor
int bank_conflict_beats(const Soc& soc, const aoc::TraceRecord& r);
// The UB banks a record's UB operands touch: bit bank_id * bank_groups + group.
uint64_t ub_banks_touched(const Soc& soc, const aoc::TraceRecord& r);     // beats per repeat (1 = none)
uint64_t vector_elems(const aoc::TraceRecord& r);
std::string copy_path_key(const aoc::TraceRecord& r);  // "gm_to_ub", "ub_to_gm", ...
double burst_efficiency(const Soc& soc, const aoc::TraceRecord& r);
double effective_copy_bytes(const Soc& soc, const aoc::TraceRecord& r);
double cube_cycles(const Soc& soc, const aoc::TraceRecord& r);  // Mmad: elems = m*n*k MACs

}  // namespace aoc::sim
