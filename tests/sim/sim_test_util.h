// Helpers for simulator tests: a SoC with round numbers (so expected cycle counts can be
// worked out by hand) and builders for trace records.
#pragma once
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "aoc/trace.h"
#include "scratch_dir.h"
#include "sim/soc.h"

namespace simtest {

// `launch` is the body of the [launch] table: by default the scheduler costs 1 us in all and
// blocks start at once with no start or end work, so block cycles are the kernel's alone.
inline aoc::sim::Soc round_soc(int aiv_cores = 48,
                               const std::string& launch = "dispatch_us = 0.6\nend_response_us = 0.4\n"
                                                           "block_dispatch_us = 0\nblock_start_cycles = 0\n"
                                                           "block_end_cycles = 0\nper_wave_us = 0\n") {
  namespace fs = std::filesystem;
  const fs::path dir = aoc::testing::process_scratch_dir() / "round_soc";
  fs::create_directories(dir);
  std::ofstream(dir / "round-vector.toml") << "[ops]\n\"Add.f16\" = [[128, 4], [256, 5]]\n";
  std::ofstream f(dir / "Round.toml");
  f << "name = \"Round\"\n"
       "[chip]\naiv_cores = " << aiv_cores << "\naic_cores = " << std::max(aiv_cores / 2, 1) << "\n"
       "clock_ghz = 1.0\nl2_bytes = 1048576\nhbm_bytes = 1073741824\n"
       "[memory]\nub_bytes = 196608\nl1_bytes = 524288\nl0a_bytes = 65536\nl0b_bytes = 65536\n"
       "l0c_bytes = 131072\nbt_bytes = 1024\nfb_bytes = 2048\nmax_pipe_buffers = 64\nevent_ids = 8\n"
       "[bandwidth]\nhbm_read_gbps = 100\nl2_write_gbps = 100\nrw_mix_efficiency = 0.5\n"
       "[paths.gm_to_ub]\nbytes_per_cycle = 10\nissue_cycles = 10\nlatency_cycles = 100\n"
       "[paths.ub_to_gm]\nbytes_per_cycle = 10\nissue_cycles = 10\nlatency_cycles = 50\n"
       "[paths.ub_to_ub]\nbytes_per_cycle = 100\nissue_cycles = 0\nlatency_cycles = 0\n"
       "[burst]\ngranule_bytes = 32\nalignment_efficiency = [[1, 0.5], [512, 1.0]]\n"
       "[ub_banks]\nblock_bytes = 32\nbank_groups = 16\nbank_id_shift = 16\nconflict_cycles_per_beat = 1\n"
       "dma_vector_stall = 0\n"
       "[launch]\n" << launch <<
       "[scalar]\ncycles_per_op = 1\naccess_cycles = 10\nissue_cycles = 1\nqueue_depth = 4\n"
       "[sync]\nset_flag_cycles = 1\nwait_flag_cycles = 1\nbarrier_cycles = 2\nsync_all_cycles = 10\n"
       "[vector]\ntable = \"round-vector.toml\"\nbytes_per_cycle = 256\nfloor_cycles = 2\n"
       "[cube]\nmmad_overhead_cycles = 2\n[cube.macs_per_cycle]\nf16 = 4096\n";
  f.close();
  return aoc::sim::load_soc((dir / "Round.toml").string());
}

inline aoc::TraceRecord base(aoc::RecKind k, aoc::Pipe p, const char* op, uint32_t line) {
  aoc::TraceRecord r;
  r.kind = k;
  r.pipe = p;
  r.op = op;
  r.file = "kernel.cpp";
  r.line = line;
  return r;
}

inline aoc::Range ub(uint64_t lo, uint64_t hi) { return aoc::Range{aoc::Space::UB, lo, hi}; }
inline aoc::Range gm(uint64_t lo, uint64_t hi) { return aoc::Range{aoc::Space::GM, lo, hi}; }

// dst = a + b on `elems` half elements in UB.
inline aoc::TraceRecord vadd(uint64_t dst, uint64_t a, uint64_t b, uint64_t elems, uint32_t line = 10,
                             const char* op = "Add") {
  auto r = base(aoc::RecKind::Compute, aoc::Pipe::V, op, line);
  r.dtype = aoc::DType::F16;
  r.elems = elems;
  r.nreads = 2;
  r.reads[0] = ub(a, a + elems * 2);
  r.reads[1] = ub(b, b + elems * 2);
  r.has_write = true;
  r.write = ub(dst, dst + elems * 2);
  return r;
}

inline aoc::TraceRecord copy_in(uint64_t ub_addr, uint64_t gm_addr, uint64_t bytes, uint32_t line = 20) {
  auto r = base(aoc::RecKind::Copy, aoc::Pipe::MTE2, "DataCopy", line);
  r.bytes = bytes;
  r.bursts = 1;
  r.burst_bytes = uint32_t(bytes);
  r.nreads = 1;
  r.reads[0] = gm(gm_addr, gm_addr + bytes);
  r.has_write = true;
  r.write = ub(ub_addr, ub_addr + bytes);
  return r;
}

inline aoc::TraceRecord copy_out(uint64_t gm_addr, uint64_t ub_addr, uint64_t bytes, uint32_t line = 30) {
  auto r = base(aoc::RecKind::Copy, aoc::Pipe::MTE3, "DataCopy", line);
  r.bytes = bytes;
  r.bursts = 1;
  r.burst_bytes = uint32_t(bytes);
  r.nreads = 1;
  r.reads[0] = ub(ub_addr, ub_addr + bytes);
  r.has_write = true;
  r.write = gm(gm_addr, gm_addr + bytes);
  return r;
}

inline aoc::TraceRecord set_flag(aoc::Pipe src, aoc::Pipe dst, uint8_t id, uint32_t line = 40, bool implicit = false) {
  auto r = base(aoc::RecKind::SetFlag, src, "SetFlag", line);
  r.peer = dst;
  r.event_id = id;
  r.implicit = implicit;
  return r;
}

inline aoc::TraceRecord wait_flag(aoc::Pipe src, aoc::Pipe dst, uint8_t id, uint32_t line = 41, bool implicit = false) {
  auto r = base(aoc::RecKind::WaitFlag, src, "WaitFlag", line);
  r.peer = dst;
  r.event_id = id;
  r.implicit = implicit;
  return r;
}

inline aoc::TraceRecord barrier(aoc::Pipe p, uint32_t line = 50) { return base(aoc::RecKind::Barrier, p, "PipeBarrier", line); }

inline aoc::TraceRecord scalar(uint64_t ops, uint32_t line = 60, const char* op = "Scalar") {
  auto r = base(aoc::RecKind::Scalar, aoc::Pipe::S, op, line);
  r.elems = ops;
  return r;
}

inline aoc::Trace trace_of(std::vector<aoc::TraceRecord> recs) {
  aoc::Trace t;
  t.records = std::move(recs);
  return t;
}

}  // namespace simtest
