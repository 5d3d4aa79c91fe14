#include "sim/record_signature.h"

#include <xxhash.h>

#include <bit>
#include <cstring>

namespace aoc::sim {
namespace {

// The fields, packed without padding so the hash sees no uninitialised bytes.
struct Key {
  uint64_t op, elems, kernel_blocks, bytes, src_gap, dst_gap;
  uint64_t range[4][2];  // reads[0..2], write: (start, length) as described above
  uint32_t repeats, bursts, burst_bytes;
  uint8_t kind, pipe, peer, event_id, dtype, dst_dtype, implicit, cache_mode, nreads, has_write;
  uint8_t space[4];
  uint8_t pad[2];
};

void put_range(Key& k, int slot, const aoc::Range& rg, uint64_t gm_phase) {
  k.space[slot] = uint8_t(rg.space);
  const bool gm = rg.space == aoc::Space::GM;
  k.range[slot][0] = gm ? rg.lo % gm_phase : rg.lo;
  k.range[slot][1] = rg.hi - rg.lo;
}

}  // namespace

uint64_t gm_phase_bytes(const Soc& soc) {
  double widest = 4096;
  for (const auto& [align, eff] : soc.alignment_efficiency) widest = std::max(widest, align);
  return std::bit_ceil(uint64_t(widest));
}

uint64_t timing_signature(const aoc::TraceRecord& r, uint64_t gm_phase) {
  Key k;
  std::memset(&k, 0, sizeof k);
  k.op = uint64_t(reinterpret_cast<uintptr_t>(r.op));
  k.elems = r.elems;
  k.kernel_blocks = r.kernel_blocks;
  k.bytes = r.bytes;
  k.src_gap = r.src_gap;
  k.dst_gap = r.dst_gap;
  k.repeats = r.repeats;
  k.bursts = r.bursts;
  k.burst_bytes = r.burst_bytes;
  k.kind = uint8_t(r.kind);
  k.pipe = uint8_t(r.pipe);
  k.peer = uint8_t(r.peer);
  k.event_id = r.event_id;
  k.dtype = uint8_t(r.dtype);
  k.dst_dtype = uint8_t(r.dst_dtype);
  k.implicit = r.implicit;
  k.cache_mode = r.cache_mode;
  k.nreads = r.nreads;
  k.has_write = r.has_write;
  for (int i = 0; i < r.nreads && i < 3; ++i) put_range(k, i, r.reads[i], gm_phase);
  if (r.has_write) put_range(k, 3, r.write, gm_phase);
  return XXH3_64bits(&k, sizeof k);
}

}  // namespace aoc::sim
