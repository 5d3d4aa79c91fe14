// Pins every output of the timing engine on random but seeded multi-block traces to digests
// taken from an earlier version of the engine, so that a change meant to make the engine
// faster cannot change a single simulated cycle unnoticed. The traces exercise what the
// engine's scheduling depends on: many blocks sharing HBM and L2 bandwidth, flags between
// pipes and to the scalar unit, barriers, full issue queues, L2 reuse across blocks and L2
// evictions with write-backs, vector instructions stalling transfers on their UB banks,
// several waves, SyncAll, cube blocks beside vector blocks, and a deadlock report.
//
// The digest covers the whole SimResult bit for bit (every double by its bit pattern): totals,
// each block's start, end, per-pipe busy cycles and instruction count, every span and flag
// arrow. On a mismatch the test prints the new digests in the form of the table below.
#include <gtest/gtest.h>

#include <bit>
#include <cinttypes>
#include <cstdio>
#include <random>
#include <string>

#include "sim/engine.h"
#include "sim/sim_error.h"
#include "sim_test_util.h"

using namespace aoc;
using namespace aoc::sim;
using namespace simtest;

namespace {

// FNV-1a over the bit patterns of the result's fields.
class Digest {
 public:
  void add(uint64_t v) {
    for (int i = 0; i < 8; ++i) {
      h_ ^= (v >> (8 * i)) & 0xff;
      h_ *= 0x100000001b3ull;
    }
  }
  void add(double d) { add(std::bit_cast<uint64_t>(d)); }
  void add(const std::string& s) {
    add(uint64_t(s.size()));
    for (unsigned char c : s) add(uint64_t(c));
  }
  uint64_t value() const { return h_; }

 private:
  uint64_t h_ = 0xcbf29ce484222325ull;
};

uint64_t digest_of(const SimResult& r) {
  Digest d;
  d.add(r.cycles);
  d.add(r.launch_us);
  d.add(r.task_duration_us);
  d.add(uint64_t(r.waves));
  d.add(uint64_t(r.blocks.size()));
  for (const auto& b : r.blocks) {
    d.add(uint64_t(b.block));
    d.add(uint64_t(b.physical_core));
    d.add(uint64_t(b.type));
    d.add(b.start);
    d.add(b.end);
    for (double busy : b.busy) d.add(busy);
    d.add(b.instructions);
  }
  d.add(uint64_t(r.spans.size()));
  for (const auto& s : r.spans) {
    d.add(uint64_t(s.block));
    d.add(uint64_t(s.pipe));
    d.add(uint64_t(s.rec));
    d.add(s.start);
    d.add(s.end);
    d.add(s.done);
  }
  d.add(uint64_t(r.arrows.size()));
  for (const auto& a : r.arrows) {
    d.add(uint64_t(a.block));
    d.add(uint64_t(a.src));
    d.add(uint64_t(a.dst));
    d.add(uint64_t(a.set_rec));
    d.add(uint64_t(a.wait_rec));
    d.add(a.set_time);
    d.add(a.wait_time);
  }
  return d.value();
}

std::string hex_double(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", v);
  return buf;
}

// Draws from the raw generator only (the standard distributions differ between libraries).
class Rng {
 public:
  explicit Rng(uint64_t seed) : g_(seed) {}
  uint64_t below(uint64_t n) { return g_() % n; }
  bool chance(int percent) { return below(100) < uint64_t(percent); }
  template <class T, size_t N>
  T pick(const T (&xs)[N]) {
    return xs[below(N)];
  }

 private:
  std::mt19937_64 g_;
};

struct Shape {
  int blocks = 8;
  int aic_blocks = 0;    // cube blocks appended after the vector blocks
  int max_iters = 20;
  int sync_alls = 0;     // SyncAll records per block (every block the same number)
  bool scalar_flags = false;  // flags to and from the scalar unit, S and ALL barriers
  uint64_t shared_gm = 1 << 20;  // bytes of the input region every block may read (L2 reuse)
};

constexpr uint64_t kPrivateGm = uint64_t(1) << 32;  // each block's own region starts at block << 26 above this

TraceRecord random_copy_in(Rng& g, uint64_t ub_addr, uint64_t bytes, uint64_t gm_addr) {
  TraceRecord r = copy_in(ub_addr, gm_addr, bytes, 20);
  if (g.chance(25)) {  // strided: several bursts with gaps between them in GM
    const uint32_t bursts = uint32_t(2 + g.below(7));
    const uint32_t len = uint32_t(std::max<uint64_t>(bytes / bursts / 32 * 32, 32));
    r.bursts = bursts;
    r.burst_bytes = len;
    r.bytes = uint64_t(len) * bursts;
    r.src_gap = 32 * g.below(40);
    r.reads[0] = gm(gm_addr, gm_addr + (uint64_t(len) + r.src_gap) * bursts);
    r.write = ub(ub_addr, ub_addr + r.bytes);
  }
  if (g.chance(10)) r.cache_mode = kCacheModeDisable;
  return r;
}

// One vector block: a loop over tiles with `nbuf` buffers, copy-in, vector work, copy-out,
// synchronised with flags the way TQue does it (every SetFlag precedes its WaitFlag in program
// order, so the trace cannot deadlock).
Trace vector_block(Rng& g, const Shape& s, int block) {
  std::vector<TraceRecord> recs;
  const int iters = 1 + int(g.below(uint64_t(s.max_iters)));
  const int nbuf = 1 + int(g.below(3));
  const uint64_t sizes[] = {512, 1024, 2048, 4096, 8192, 16384, 992, 3000, 6144, 32};
  const uint64_t tile = g.pick(sizes);
  const uint64_t gm_offsets[] = {0, 0, 0, 32, 64, 256, 100};
  const uint64_t gm_skew = g.pick(gm_offsets);
  const uint64_t priv = kPrivateGm + (uint64_t(block) << 26);
  const char* ops[] = {"Add", "Mul", "Exp", "Foo", "Add"};
  const DType types[] = {DType::F16, DType::F32, DType::F16};
  std::vector<int> sync_at;
  for (int k = 0; k < s.sync_alls; ++k) sync_at.push_back(int(g.below(uint64_t(iters) + 1)));
  std::sort(sync_at.begin(), sync_at.end());
  size_t next_sync = 0;
  auto sync_alls_before = [&](int i) {
    while (next_sync < sync_at.size() && sync_at[next_sync] <= i) {
      recs.push_back(base(RecKind::SyncAll, Pipe::ALL, "SyncAll", 70));
      ++next_sync;
    }
  };
  for (int i = 0; i < iters; ++i) {
    sync_alls_before(i);
    const uint8_t b = uint8_t(i % nbuf);
    const uint8_t ev = uint8_t(kImplicitEventBase + b);
    const uint64_t in = b * 2 * tile + (g.chance(30) ? 65536 : 0);  // sometimes another UB bank
    const uint64_t out = 98304 + b * tile;
    if (g.chance(30)) {
      auto sc = scalar(1 + g.below(200), 60, g.chance(50) ? "GetValue" : "KernelScalar");
      sc.kernel_blocks = g.below(50);
      recs.push_back(sc);
    }
    if (i >= nbuf) recs.push_back(wait_flag(Pipe::V, Pipe::MTE2, ev, 41, true));
    const bool shared = g.chance(40);
    const uint64_t src = shared ? 4096 + g.below(s.shared_gm / 512) * 512 + gm_skew
                                : priv + uint64_t(i) * tile + gm_skew;
    recs.push_back(random_copy_in(g, in, tile, src));
    if (g.chance(30)) recs.push_back(random_copy_in(g, in + tile, tile, priv + (uint64_t(1) << 25) + uint64_t(i) * tile));
    recs.push_back(set_flag(Pipe::MTE2, Pipe::V, ev, 40, true));
    recs.push_back(wait_flag(Pipe::MTE2, Pipe::V, ev, 41, true));
    if (i >= nbuf) recs.push_back(wait_flag(Pipe::MTE3, Pipe::V, ev, 41, true));
    const int nvec = 1 + int(g.below(3));
    for (int k = 0; k < nvec; ++k) {
      const DType t = g.pick(types);
      const uint64_t elems = std::max<uint64_t>(tile / dtype_bytes(t), 1);
      auto v = vadd(out, in, in + 32 * g.below(4), elems, 10, g.pick(ops));
      v.dtype = t;
      v.reads[0] = ub(in, in + tile);
      v.reads[1] = ub(in + 32 * g.below(20), in + tile);
      v.write = ub(out, out + tile);
      if (g.chance(20)) v.nreads = 1;
      recs.push_back(v);
      if (g.chance(10)) recs.push_back(barrier(Pipe::V));
    }
    if (g.chance(15)) {  // a UB -> UB copy on the vector pipe
      auto c = base(RecKind::Copy, Pipe::V, "DataCopy", 25);
      c.bytes = tile;
      c.bursts = 1;
      c.burst_bytes = uint32_t(tile);
      c.nreads = 1;
      c.reads[0] = ub(out, out + tile);
      c.has_write = true;
      c.write = ub(in, in + tile);
      recs.push_back(c);
    }
    recs.push_back(set_flag(Pipe::V, Pipe::MTE2, ev, 40, true));
    recs.push_back(set_flag(Pipe::V, Pipe::MTE3, ev, 40, true));
    recs.push_back(wait_flag(Pipe::V, Pipe::MTE3, ev, 41, true));
    const uint64_t dst = g.chance(20) ? 4096 + g.below(s.shared_gm / 512) * 512  // rewrite shared lines
                                      : priv + (uint64_t(1) << 24) + uint64_t(i) * tile + gm_skew;
    recs.push_back(copy_out(dst, out, tile, 30));
    recs.push_back(set_flag(Pipe::MTE3, Pipe::V, ev, 40, true));
    if (s.scalar_flags) {
      if (g.chance(15)) {  // the scalar unit waits for the copy-out (e.g. before reading GM)
        recs.push_back(set_flag(Pipe::MTE3, Pipe::S, 1, 42));
        recs.push_back(wait_flag(Pipe::MTE3, Pipe::S, 1, 43));
      }
      if (g.chance(10)) {  // and the vector pipe waits for the scalar unit
        recs.push_back(set_flag(Pipe::S, Pipe::V, 2, 44));
        recs.push_back(wait_flag(Pipe::S, Pipe::V, 2, 45));
      }
      if (g.chance(5)) recs.push_back(barrier(Pipe::ALL));
      if (g.chance(5)) recs.push_back(barrier(Pipe::S));
      if (g.chance(5)) recs.push_back(barrier(Pipe::MTE2));
      if (g.chance(5)) {  // a scalar-unit copy
        auto c = base(RecKind::Copy, Pipe::S, "DataCopy", 26);
        c.bytes = 64;
        c.nreads = 1;
        c.reads[0] = ub(out, out + 64);
        c.has_write = true;
        c.write = ub(in, in + 64);
        recs.push_back(c);
      }
    }
  }
  sync_alls_before(iters);
  return trace_of(std::move(recs));
}

// One cube block: GM -> L1 on MTE2, L1 -> L0A/L0B on MTE1, Mmad on M, L0C -> GM on FIX.
Trace cube_block(Rng& g, const Shape& s, int block) {
  std::vector<TraceRecord> recs;
  const int iters = 1 + int(g.below(uint64_t(s.max_iters)));
  const uint64_t priv = kPrivateGm + (uint64_t(64 + block) << 26);
  auto copy = [](Pipe p, Range from, Range to, uint32_t line) {
    auto c = base(RecKind::Copy, p, "DataCopy", line);
    c.bytes = to.hi - to.lo;
    c.bursts = 1;
    c.burst_bytes = uint32_t(c.bytes);
    c.nreads = 1;
    c.reads[0] = from;
    c.has_write = true;
    c.write = to;
    return c;
  };
  for (int i = 0; i < iters; ++i) {
    const uint64_t bytes = 4096 * (1 + g.below(8));
    const uint64_t src = g.chance(50) ? 4096 + g.below(s.shared_gm / 512) * 512 : priv + uint64_t(i) * bytes;
    if (i > 0) recs.push_back(wait_flag(Pipe::MTE1, Pipe::MTE2, 0, 41));
    recs.push_back(copy(Pipe::MTE2, gm(src, src + bytes), Range{Space::L1, 0, bytes}, 80));
    recs.push_back(set_flag(Pipe::MTE2, Pipe::MTE1, 0, 40));
    recs.push_back(wait_flag(Pipe::MTE2, Pipe::MTE1, 0, 41));
    if (i > 0) recs.push_back(wait_flag(Pipe::M, Pipe::MTE1, 0, 41));
    recs.push_back(copy(Pipe::MTE1, Range{Space::L1, 0, bytes / 2}, Range{Space::L0A, 0, bytes / 2}, 81));
    recs.push_back(copy(Pipe::MTE1, Range{Space::L1, bytes / 2, bytes}, Range{Space::L0B, 0, bytes / 2}, 82));
    recs.push_back(set_flag(Pipe::MTE1, Pipe::MTE2, 0, 40));
    recs.push_back(set_flag(Pipe::MTE1, Pipe::M, 0, 40));
    recs.push_back(wait_flag(Pipe::MTE1, Pipe::M, 0, 41));
    if (i > 0) recs.push_back(wait_flag(Pipe::FIX, Pipe::M, 0, 41));
    auto mm = base(RecKind::Compute, Pipe::M, "Mmad", 83);
    mm.dtype = DType::F16;
    mm.elems = 16 * 16 * 16 * (1 + g.below(64));
    recs.push_back(mm);
    recs.push_back(set_flag(Pipe::M, Pipe::MTE1, 0, 40));
    recs.push_back(set_flag(Pipe::M, Pipe::FIX, 0, 40));
    recs.push_back(wait_flag(Pipe::M, Pipe::FIX, 0, 41));
    const uint64_t out = 2048 * (1 + g.below(4));
    const uint64_t dst = priv + (uint64_t(1) << 24) + uint64_t(i) * out;
    recs.push_back(copy(Pipe::FIX, Range{Space::L0C, 0, out}, gm(dst, dst + out), 84));
    recs.push_back(set_flag(Pipe::FIX, Pipe::M, 0, 40));
  }
  for (int k = 0; k < s.sync_alls; ++k) recs.push_back(base(RecKind::SyncAll, Pipe::ALL, "SyncAll", 70));
  return trace_of(std::move(recs));
}

struct Case {
  const char* name;
  uint64_t seed;
  Shape shape;
};

struct Golden {
  const char* name;
  uint64_t with_spans;     // digest of the result with spans and arrows kept
  uint64_t without_spans;  // digest of the result with record_spans off
  const char* cycles;      // SimResult::cycles, hex
};

Soc soc_for(const std::string& name) {
  if (name == "b1-small-l2") {  // evictions and write-backs, with read/write turnarounds
    Soc soc = load_soc("Ascend910B1");
    soc.l2_bytes = 2 << 20;
    soc.rw_mix_efficiency = 0.8;
    return soc;
  }
  if (name == "round-waves")  // 8 cores: several waves, with launch costs
    return round_soc(8, "dispatch_us = 0.3\nend_response_us = 0.2\nblock_dispatch_us = 0.01\n"
                        "block_start_cycles = 40\nblock_end_cycles = 7\nper_wave_us = 0.05\n");
  if (name == "round-stall") {  // partial bank stalls, 4-deep queues, 1 MiB L2
    Soc soc = round_soc();
    soc.dma_vector_bank_stall = 0.5;
    return soc;
  }
  if (name == "b1-waves") return load_soc("Ascend910B1");
  return load_soc("Ascend910B1");
}

const Case kCases[] = {
    {"b1-48-double-buffer", 1, Shape{48, 0, 30, 0, false, 4 << 20}},
    {"b1-small-l2", 2, Shape{40, 0, 40, 0, true, 1 << 20}},
    {"round-waves", 3, Shape{27, 0, 12, 0, true, 256 << 10}},
    {"b1-sync-all-mixed", 4, Shape{24, 12, 15, 2, true, 1 << 20}},
    {"round-stall", 5, Shape{48, 0, 25, 0, true, 512 << 10}},
    {"b1-waves", 6, Shape{100, 0, 6, 0, false, 1 << 20}},
    {"b1-cube-heavy", 7, Shape{4, 24, 20, 1, true, 8 << 20}},
    {"b1-one-block", 8, Shape{1, 0, 60, 0, true, 1 << 20}},
    {"b1-48-long", 10, Shape{48, 0, 150, 0, false, 64 << 20}},
};

// Taken from the engine before it was reorganised around an event queue (commit 6638ea1).
const Golden kGolden[] = {
    {"b1-48-double-buffer", 0xc4f500bfc73d2f8dull, 0x64674479021ff58full, "0x1.f4ca4ed70ac2ep+14"},
    {"b1-small-l2", 0x7372a5c8646600e9ull, 0xec8c961b0a4bcd5bull, "0x1.7f14af9bdb4b9p+14"},
    {"round-waves", 0x17217c5afc775b46ull, 0x4fe9fcd4d8e48dd4ull, "0x1.d3728f5c28f5ep+15"},
    {"b1-sync-all-mixed", 0xd46fe48e8762ff86ull, 0x60cb0207f2835114ull, "0x1.7821c6348e2c7p+14"},
    {"round-stall", 0xb8b6ab636f0e2a7aull, 0x8c56c079e07e127bull, "0x1.2039de641647dp+16"},
    {"b1-waves", 0xd76b7fab04b69a90ull, 0xf777322b67489f2aull, "0x1.098ac6e918cb8p+14"},
    {"b1-cube-heavy", 0x6c4f3aa25412e177ull, 0x6a4a38b0e1ec42dbull, "0x1.473615f670d3ap+14"},
    {"b1-one-block", 0xa10bb0adc056264full, 0x11dcbe19c9f0047aull, "0x1.f63f84a091005p+14"},
    {"b1-48-long", 0x79bf8deb8cd8378eull, 0x121cd78bd6b469ecull, "0x1.27d03bba91d11p+17"},
};

std::vector<Trace> traces_of(const Case& c) {
  Rng g(c.seed);
  std::vector<Trace> traces;
  for (int b = 0; b < c.shape.blocks; ++b) traces.push_back(vector_block(g, c.shape, b));
  for (int b = 0; b < c.shape.aic_blocks; ++b) traces.push_back(cube_block(g, c.shape, b));
  return traces;
}

std::vector<BlockTrace> blocks_of(const Case& c, const std::vector<Trace>& traces) {
  std::vector<BlockTrace> blocks;
  for (size_t i = 0; i < traces.size(); ++i)
    blocks.push_back({&traces[i], int(i) < c.shape.blocks ? CoreType::AIV : CoreType::AIC});
  return blocks;
}

}  // namespace

TEST(EngineEquivalence, SeededTracesMatchTheGoldenDigests) {
  ASSERT_EQ(std::size(kCases), std::size(kGolden));
  std::string table;
  bool all_match = true;
  for (size_t k = 0; k < std::size(kCases); ++k) {
    const Case& c = kCases[k];
    const Soc soc = soc_for(c.name);
    const std::vector<Trace> traces = traces_of(c);
    const std::vector<BlockTrace> blocks = blocks_of(c, traces);
    EngineOptions with, without;
    with.record_spans = true;
    without.record_spans = false;
    const SimResult a = simulate(soc, blocks, with);
    const SimResult b = simulate(soc, blocks, without);
    // Spans only add detail: the blocks' times must not depend on keeping them.
    ASSERT_EQ(a.cycles, b.cycles) << c.name;
    ASSERT_TRUE(b.spans.empty()) << c.name;
    const uint64_t da = digest_of(a), db = digest_of(b);
    char line[256];
    std::snprintf(line, sizeof line, "    {\"%s\", 0x%016" PRIx64 "ull, 0x%016" PRIx64 "ull, \"%s\"},\n", c.name, da, db,
                  hex_double(a.cycles).c_str());
    table += line;
    const Golden& want = kGolden[k];
    EXPECT_STREQ(want.name, c.name);
    EXPECT_EQ(want.cycles, hex_double(a.cycles)) << c.name;
    EXPECT_EQ(want.with_spans, da) << c.name << " (with spans)";
    EXPECT_EQ(want.without_spans, db) << c.name << " (without spans)";
    if (want.with_spans != da || want.without_spans != db || want.cycles != hex_double(a.cycles)) all_match = false;
  }
  if (!all_match) std::printf("digests of this engine:\n%s", table.c_str());
}

// The deadlock report names the cycle and the blocked records of every block that is stuck.
TEST(EngineEquivalence, DeadlockReportIsUnchanged) {
  Rng g(9);
  Shape s{6, 0, 8, 0, true, 1 << 20};
  std::vector<Trace> traces;
  for (int b = 0; b < s.blocks; ++b) traces.push_back(vector_block(g, s, b));
  // Block 3 waits on the vector pipe for an event nobody sets, halfway through its loop.
  auto& recs = traces[3].records;
  recs.insert(recs.begin() + std::ptrdiff_t(recs.size() / 2), wait_flag(Pipe::MTE2, Pipe::V, 7, 99));
  std::vector<BlockTrace> blocks;
  for (const auto& t : traces) blocks.push_back({&t, CoreType::AIV});
  const Soc soc = load_soc("Ascend910B1");
  std::string message;
  try {
    simulate(soc, blocks);
  } catch (const SimError& e) {
    message = e.what();
  }
  ASSERT_FALSE(message.empty());
  Digest d;
  d.add(message);
  EXPECT_EQ(d.value(), 0xe99aa545c7efacd6ull) << "digest 0x" << std::hex << d.value() << " of:\n" << message;
}
