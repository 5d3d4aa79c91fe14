#include "sim/cost_model.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>

namespace aoc::sim {
namespace {

const char* space_key(Space s) {
  switch (s) {
    case Space::GM: return "gm";
    case Space::UB: return "ub";
    case Space::L1: return "l1";
    case Space::L0A: return "l0a";
    case Space::L0B: return "l0b";
    case Space::L0C: return "l0c";
    case Space::BT: return "bt";
    case Space::FB: return "fb";
  }
  return "?";
}

// The path a record uses when its ranges do not say (records built without addresses).
const char* default_path(Pipe p) {
  switch (p) {
    case Pipe::MTE2: return "gm_to_ub";
    case Pipe::MTE3: return "ub_to_gm";
    case Pipe::MTE1: return "l1_to_l0a";
    case Pipe::FIX: return "l0c_to_gm";
    default: return "ub_to_ub";
  }
}

const Range* gm_range(const TraceRecord& r) {
  for (int i = 0; i < r.nreads; ++i)
    if (r.reads[i].space == Space::GM) return &r.reads[i];
  if (r.has_write && r.write.space == Space::GM) return &r.write;
  return nullptr;
}

bool is_scalar_access(const TraceRecord& r) {
  return std::strcmp(r.op, "GetValue") == 0 || std::strcmp(r.op, "SetValue") == 0 ||
         std::strcmp(r.op, kScalarAccessOp) == 0;
}

}  // namespace

uint64_t vector_elems(const TraceRecord& r) {
  if (r.elems) return r.elems;
  // Level-0 calls may only give repeats: one repeat is 256 bytes of the element type.
  return uint64_t(r.repeats) * 256 / std::max<uint32_t>(dtype_bytes(r.dtype), 1);
}

const Curve* vector_curve(const Soc& soc, const TraceRecord& r) {
  std::string base = std::string(r.op) + "." + dtype_name(r.dtype);
  if (r.dst_dtype != DType::None && r.dst_dtype != r.dtype) {
    auto it = soc.vector_costs.find(base + "." + dtype_name(r.dst_dtype));
    if (it != soc.vector_costs.end()) return &it->second;
  }
  auto it = soc.vector_costs.find(base);
  return it != soc.vector_costs.end() ? &it->second : nullptr;
}

double vector_table_cycles(const Soc& soc, const TraceRecord& r) { return vector_table_cycles(soc, r, vector_curve(soc, r)); }

double vector_table_cycles(const Soc& soc, const TraceRecord& r, const Curve* c) {
  const double n = double(vector_elems(r));
  if (c) return c->at(n);
  // No measurement for this op: a full-rate instruction with the measured floor.
  return std::max(soc.vector_floor_cycles, n * dtype_bytes(r.dtype) / soc.vector_bytes_per_cycle);
}

double vector_ideal_cycles(const Soc& soc, const TraceRecord& r) {
  const double n = double(vector_elems(r));
  std::string base = std::string(r.op) + "." + dtype_name(r.dtype);
  auto it = soc.vector_costs.end();
  if (r.dst_dtype != DType::None && r.dst_dtype != r.dtype) it = soc.vector_costs.find(base + "." + dtype_name(r.dst_dtype));
  if (it == soc.vector_costs.end()) it = soc.vector_costs.find(base);
  if (it != soc.vector_costs.end()) return n * it->second.min_cost_per_unit();
  return n * dtype_bytes(r.dtype) / soc.vector_bytes_per_cycle;
}

namespace {

// The 32-B blocks one repeat of a UB operand touches, with their bank groups and bank id, worked
// out once per operand: the conflict checks below compare them pairwise.
struct RepeatBlocks {
  int count = 0;          // blocks in one repeat (at most 8)
  int group[8] = {};      // bank group of block j: ((lo / block) + j) % groups
  int bank = 0;           // bank id of the operand's start
};

constexpr int kBlocksPerRepeat = 8;

RepeatBlocks repeat_blocks(const Soc& soc, const Range& rg) {
  const uint64_t block = soc.ub_block_bytes, groups = soc.ub_bank_groups;
  RepeatBlocks b;
  const uint64_t n = (rg.hi > rg.lo) ? (rg.hi - rg.lo + block - 1) / block : 0;
  b.count = int(std::min<uint64_t>(n, kBlocksPerRepeat));
  uint64_t g = (rg.lo / block) % groups;  // consecutive blocks rotate through the groups
  for (int j = 0; j < b.count; ++j) {
    b.group[j] = int(g);
    g = g + 1 == groups ? 0 : g + 1;
  }
  b.bank = int(rg.lo >> soc.ub_bank_id_shift);
  return b;
}

int start_group(const Soc& soc, const Range& rg) { return int((rg.lo / soc.ub_block_bytes) % soc.ub_bank_groups); }

}  // namespace

int bank_conflict_beats(const Soc& soc, const TraceRecord& r) {
  // One repeat reads/writes 8 consecutive 32-B blocks per operand; consecutive blocks rotate
  // through the bank groups, so the conflict pattern of the first repeat holds for all of them.
  const uint32_t groups = soc.ub_bank_groups;
  const uint32_t block = soc.ub_block_bytes;
  if (groups == 0 || block == 0) return 1;
  std::array<int, 64> reads_per_group{}, writes_per_group{};
  std::array<RepeatBlocks, 3> reads;
  int nread_ops = 0;
  for (int i = 0; i < r.nreads; ++i) {
    if (r.reads[i].space != Space::UB) continue;
    const RepeatBlocks& b = reads[nread_ops++] = repeat_blocks(soc, r.reads[i]);
    for (int j = 0; j < b.count; ++j) ++reads_per_group[b.group[j] % 64];
  }
  const bool has_w = r.has_write && r.write.space == Space::UB;
  RepeatBlocks w;
  if (has_w) {
    w = repeat_blocks(soc, r.write);
    for (int j = 0; j < w.count; ++j) ++writes_per_group[w.group[j] % 64];
  }
  int beats = 1;
  for (uint32_t g = 0; g < groups && g < 64; ++g) beats = std::max({beats, reads_per_group[g], writes_per_group[g]});
  // Read-write conflict: a write block in the same bank (group and bank id) as a read block,
  // unless source and destination start in the same bank (hardware delays the write).
  if (has_w && nread_ops > 0) {
    const int w_start = start_group(soc, r.write);
    bool rw = false;
    for (int i = 0, k = 0; i < r.nreads && !rw; ++i) {
      const Range& rd = r.reads[i];
      if (rd.space != Space::UB) continue;
      const RepeatBlocks& b = reads[k++];
      if (b.bank != w.bank) continue;  // no block of this read shares the write's bank id
      if (start_group(soc, rd) == w_start) continue;  // same start bank
      for (int a = 0; a < b.count && !rw; ++a)
        for (int c = 0; c < w.count && !rw; ++c) rw = b.group[a] == w.group[c];
    }
    if (rw) ++beats;
  }
  return beats;
}

uint64_t ub_banks_touched(const Soc& soc, const TraceRecord& r) {
  const uint64_t groups = soc.ub_bank_groups, block = soc.ub_block_bytes;
  if (groups == 0 || block == 0) return 0;
  uint64_t mask = 0;
  auto add = [&](const Range& rg) {
    if (rg.space != Space::UB || rg.hi <= rg.lo) return;
    for (uint64_t bank = rg.lo >> soc.ub_bank_id_shift; bank <= (rg.hi - 1) >> soc.ub_bank_id_shift; ++bank) {
      const uint64_t lo = std::max(rg.lo, bank << soc.ub_bank_id_shift);
      const uint64_t hi = std::min(rg.hi, (bank + 1) << soc.ub_bank_id_shift);
      // Consecutive 32-B blocks rotate through the groups: a run of `groups` blocks touches all.
      const uint64_t blocks = std::min((hi - lo + block - 1) / block, groups);
      if (blocks == groups && bank * groups + groups <= 64) {  // every group of the bank: its bits at once
        mask |= (groups == 64 ? ~uint64_t{0} : (uint64_t{1} << groups) - 1) << (bank * groups);
        continue;
      }
      uint64_t g = (lo / block) % groups;
      for (uint64_t j = 0; j < blocks; ++j) {
        const uint64_t bit = bank * groups + g;
        if (bit < 64) mask |= uint64_t{1} << bit;
        g = g + 1 == groups ? 0 : g + 1;
      }
    }
  };
  for (int i = 0; i < r.nreads; ++i) add(r.reads[i]);
  if (r.has_write) add(r.write);
  return mask;
}

double vector_cycles(const Soc& soc, const TraceRecord& r) { return vector_cycles(soc, r, vector_curve(soc, r)); }

double vector_cycles(const Soc& soc, const TraceRecord& r, const Curve* curve) {
  double c = vector_table_cycles(soc, r, curve);
  int beats = bank_conflict_beats(soc, r);
  if (beats > 1) {
    double bytes = double(vector_elems(r)) * dtype_bytes(r.dtype);
    double repeats = std::ceil(bytes / 256.0);
    c += repeats * (beats - 1) * soc.bank_conflict_cycles_per_beat;
  }
  return c;
}

std::string copy_path_key(const TraceRecord& r) {
  if (r.nreads > 0 && r.has_write)
    return std::string(space_key(r.reads[0].space)) + "_to_" + space_key(r.write.space);
  return default_path(r.pipe);
}

double burst_efficiency(const Soc& soc, const TraceRecord& r) {
  const Range* gm = gm_range(r);
  if (!gm || soc.alignment_efficiency.empty()) return 1.0;
  uint32_t n = std::max<uint32_t>(r.bursts, 1);
  uint64_t len = r.burst_bytes ? r.burst_bytes : r.bytes / n;
  bool gm_is_src = r.nreads > 0 && r.reads[0].space == Space::GM;
  uint64_t stride = len + (gm_is_src ? r.src_gap : r.dst_gap);
  uint64_t bits = gm->lo | len | (n > 1 ? stride : 0);
  // Largest power of two dividing the start address, the length and the stride of every burst.
  uint64_t align = bits ? (uint64_t(1) << std::countr_zero(bits)) : 4096;
  double eff = soc.alignment_efficiency.front().second;
  for (auto [a, e] : soc.alignment_efficiency)
    if (double(align) >= a) eff = e;
  return eff;
}

double effective_copy_bytes(const Soc& soc, const TraceRecord& r) {
  uint32_t n = std::max<uint32_t>(r.bursts, 1);
  double len = r.burst_bytes ? double(r.burst_bytes) : double(r.bytes) / n;
  double g = std::max<uint32_t>(soc.burst_granule_bytes, 1);
  double rounded = std::ceil(len / g) * g;
  const Range* gm = gm_range(r);
  if (!gm || soc.alignment_efficiency.empty()) return n * rounded;
  // GM is served in whole windows (the largest alignment of the table, 512 B): only the bytes
  // of a burst that share a window with bytes outside it pay the alignment efficiency, so a
  // long misaligned burst loses its two edge windows, a short one all of it.
  const double w = soc.alignment_efficiency.back().first;
  const double start = double(gm->lo % uint64_t(w));
  const double head = start > 0 ? std::min(rounded, w - start) : 0;
  const double rest = rounded - head;
  const double tail = std::fmod(rest, w);
  const double partial = head + tail;
  return n * ((rounded - partial) + partial / burst_efficiency(soc, r));
}

double cube_cycles(const Soc& soc, const TraceRecord& r) {
  auto it = soc.cube_macs_per_cycle.find(dtype_name(r.dtype));
  double rate = it != soc.cube_macs_per_cycle.end() ? it->second : soc.cube_macs_per_cycle.begin()->second;
  return soc.mmad_overhead_cycles + std::ceil(double(r.elems) / rate);
}

CostLookups::CostLookups(const Soc& soc) : soc_(soc) { paths_.fill(nullptr); }

const Curve* CostLookups::vector_curve(const TraceRecord& r) {
  for (const auto& e : curves_)
    if (e.op == r.op && e.dtype == r.dtype && e.dst_dtype == r.dst_dtype) return e.curve;
  const Curve* c = sim::vector_curve(soc_, r);
  // Names are string literals, so a handful of pointers; a kernel with very many is looked up by name.
  if (curves_.size() < kMaxCurves) curves_.push_back({r.op, r.dtype, r.dst_dtype, c});
  return c;
}

const DmaPath& CostLookups::path(const TraceRecord& r) {
  // copy_path_key depends on the spaces of the first read and the write when the record has
  // both, on its pipe otherwise.
  const bool ranged = r.nreads > 0 && r.has_write;
  const size_t slot = ranged ? size_t(r.reads[0].space) * 8 + size_t(r.write.space) : 64 + size_t(r.pipe);
  if (slot >= paths_.size()) return soc_.path(copy_path_key(r));
  if (!paths_[slot]) paths_[slot] = &soc_.path(copy_path_key(r));  // throws for a path the SoC lacks
  return *paths_[slot];
}

namespace {

InstrCost cost_with(const Soc& soc, const TraceRecord& r, CostLookups* lookups) {
  InstrCost c;
  switch (r.kind) {
    case RecKind::Compute:
      if (r.pipe == Pipe::M) c.cycles = cube_cycles(soc, r);
      else c.cycles = vector_cycles(soc, r, lookups ? lookups->vector_curve(r) : vector_curve(soc, r));
      break;
    case RecKind::Copy: {
      const DmaPath& p = lookups ? lookups->path(r) : soc.path(copy_path_key(r));
      c.cycles = p.issue_cycles;
      c.latency = p.latency_cycles;
      c.core_bytes_per_cycle = p.core_bytes_per_cycle;
      c.bytes = r.bytes ? effective_copy_bytes(soc, r) : 0;
      // The DMA engine starts at most one burst every burst_cycles, overlapped with the data
      // of the bursts before it: short bursts cap the core's rate below the path's.
      if (p.burst_cycles > 0 && c.bytes > 0)
        c.core_bytes_per_cycle =
            std::min(c.core_bytes_per_cycle, c.bytes / (p.burst_cycles * double(std::max<uint32_t>(r.bursts, 1))));
      bool gm_src = r.nreads > 0 && r.reads[0].space == Space::GM;
      bool gm_dst = r.has_write && r.write.space == Space::GM;
      if (r.nreads == 0 && !r.has_write) {  // no ranges: infer from the pipe
        gm_src = r.pipe == Pipe::MTE2;
        gm_dst = r.pipe == Pipe::MTE3 || r.pipe == Pipe::FIX;
      }
      c.resource = gm_src ? Resource::Hbm : gm_dst ? Resource::L2 : Resource::None;
      break;
    }
    case RecKind::Scalar:
      c.cycles = soc.scalar_cycles_per_block * double(r.kernel_blocks) +
                 (is_scalar_access(r) ? soc.scalar_access_cycles : soc.scalar_cycles_per_op) * double(r.elems);
      break;
    case RecKind::SetFlag: c.cycles = soc.set_flag_cycles; break;
    case RecKind::WaitFlag: c.cycles = soc.wait_flag_cycles; break;
    case RecKind::Barrier: c.cycles = soc.barrier_cycles; break;
    case RecKind::SyncAll: c.cycles = soc.sync_all_cycles; break;
  }
  return c;
}

}  // namespace

InstrCost cost_of(const Soc& soc, const TraceRecord& r) { return cost_with(soc, r, nullptr); }

InstrCost cost_of(const Soc& soc, const TraceRecord& r, CostLookups& lookups) { return cost_with(soc, r, &lookups); }

}  // namespace aoc::sim
