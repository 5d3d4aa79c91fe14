#include <gtest/gtest.h>

#include <sstream>

#include "sim/chrome_trace.h"
#include "sim/hw_limit.h"
#include "sim/profile.h"
#include "sim_test_util.h"

using namespace aoc;
using namespace aoc::sim;
using namespace simtest;

namespace {
std::vector<TraceRecord> small_kernel() {
  return {copy_in(0, 4096, 1024, 11), set_flag(Pipe::MTE2, Pipe::V, 0), wait_flag(Pipe::MTE2, Pipe::V, 0),
          vadd(2048, 0, 1024, 256, 12), set_flag(Pipe::V, Pipe::MTE3, 0), wait_flag(Pipe::V, Pipe::MTE3, 0),
          copy_out(8192, 2048, 512, 13)};
}
}  // namespace

TEST(Profile, FieldsAndAverages) {
  Soc soc = round_soc();
  Trace a = trace_of(small_kernel());
  auto recs = small_kernel();
  recs.push_back(scalar(1000));
  Trace b = trace_of(recs);
  SimResult r = simulate(soc, {{&a, CoreType::AIV}, {&b, CoreType::AIV}});
  Profile p = make_profile(soc, r);
  EXPECT_EQ(p.block_dim, 2u);
  EXPECT_EQ(p.aiv_blocks, 2u);
  ASSERT_EQ(p.blocks.size(), 2u);
  for (const char* f : {"aiv_time", "aiv_vec_time", "aiv_vec_ratio", "aiv_scalar_time", "aiv_mte2_time",
                        "aiv_mte2_ratio", "aiv_mte3_time", "aiv_mte3_ratio", "aiv_total_cycles"})
    EXPECT_TRUE(p.fields.count(f)) << f;
  EXPECT_FALSE(p.fields.count("aic_mac_time"));
  EXPECT_DOUBLE_EQ(p.fields["aiv_time"], (p.blocks[0].time_us + p.blocks[1].time_us) / 2);
  EXPECT_NEAR(p.blocks[0].fields["aiv_vec_time"], 7e-3, 1e-12);  // 5 cycles + 2 conflict beats (b at 1024 shares group 0)
  EXPECT_GT(p.blocks[1].time_us, p.blocks[0].time_us);
  EXPECT_EQ(p.bound_pipe, "aiv_scalar_time");
  for (const auto& b2 : p.blocks)
    for (const auto& [k, v] : b2.fields)
      if (k.find("_ratio") != std::string::npos) {
        EXPECT_GE(v, 0);
        EXPECT_LE(v, 1.0 + 1e-12) << k;
      }
  nlohmann::json j = to_json(p);
  EXPECT_EQ(j["block_dim"], 2);
  EXPECT_EQ(j["blocks"].size(), 2u);
  EXPECT_EQ(j["bound_pipe"], "aiv_scalar_time");
  EXPECT_DOUBLE_EQ(j["task_duration_us"].get<double>(), r.task_duration_us);
}

TEST(Profile, CsvShapes) {
  Soc soc = round_soc();
  Trace a = trace_of(small_kernel());
  SimResult r = simulate(soc, {{&a, CoreType::AIV}, {&a, CoreType::AIV}, {&a, CoreType::AIV}});
  Profile p = make_profile(soc, r);
  std::ostringstream os;
  write_op_summary_csv(os, p, "AddCustom");
  std::string s = os.str();
  EXPECT_EQ(std::count(s.begin(), s.end(), '\n'), 2);
  EXPECT_EQ(s.rfind("Op Name,Task Type,Task Duration(us),Block Dim", 0), 0u) << s;
  EXPECT_NE(s.find("aiv_mte2_time(us)"), std::string::npos);
  EXPECT_NE(s.find("AddCustom,AI_VECTOR_CORE,"), std::string::npos) << s;
  std::ostringstream pu;
  write_pipe_utilization_csv(pu, p);
  std::string u = pu.str();
  EXPECT_EQ(std::count(u.begin(), u.end(), '\n'), 4);  // header + 3 blocks
  EXPECT_EQ(u.rfind("block_id,sub_block_id,core_type,aiv_time(us)", 0), 0u) << u;
}

TEST(ChromeTrace, LanesSlicesAndFlows) {
  Soc soc = round_soc();
  Trace a = trace_of(small_kernel());
  SimResult r = simulate(soc, {{&a, CoreType::AIV}});
  auto j = chrome_trace(soc, {&a}, r);
  int slices = 0, starts = 0, finishes = 0, lanes = 0;
  for (const auto& e : j["traceEvents"]) {
    std::string ph = e["ph"];
    if (ph == "X") ++slices;
    if (ph == "s") ++starts;
    if (ph == "f") ++finishes;
    if (ph == "M" && e["name"] == "thread_name") ++lanes;
    if (ph == "X" && e["name"] == "Add") {
      EXPECT_EQ(e["tid"], int(Pipe::V));
      EXPECT_EQ(e["args"]["source"], "kernel.cpp:12");
    }
  }
  EXPECT_EQ(starts, 2);
  EXPECT_EQ(finishes, 2);
  EXPECT_EQ(slices, 3);  // the copy, the add and the copy out (issue slots are not drawn)
  EXPECT_EQ(lanes, kPipes);
}

TEST(HwLimit, BoundUnitFromWork) {
  Soc soc = load_soc("Ascend910B1");
  UnitWork w;
  w.mte2_bytes = 2.0 * 8192 * 8192 * 2;  // Add: two half inputs
  w.mte3_bytes = 8192.0 * 8192 * 2;
  w.vector_bytes = 8192.0 * 8192 * 2;
  HwLimit h = hw_limit(soc, w);
  EXPECT_EQ(h.bound, "mte2");
  EXPECT_NEAR(h.time_us, 268435456.0 / (soc.hbm_read_bytes_per_cycle * soc.clock_ghz * 1e3), 1e-6);  // bytes / HBM bandwidth
  // Vector: 128 MiB at 48 x 256 B/cycle x 1.85 GHz = 5.904 us, the sample's theory figure.
  EXPECT_NEAR(h.unit_us["vector"], 5.904, 0.01);
  UnitWork cube;
  cube.cube_flops = 2.0 * 4096 * 4096 * 4096;
  HwLimit hc = hw_limit(soc, cube);
  EXPECT_EQ(hc.bound, "cube");
  EXPECT_NEAR(hc.time_us, cube.cube_flops / 363.7e6, 0.01 * hc.time_us);  // 363.7 TFLOPS fp16
  // Scalar code only: no unit has work, so no unit is the bound.
  HwLimit none = hw_limit(soc, UnitWork{});
  EXPECT_EQ(none.bound, "none");
  EXPECT_EQ(none.time_us, 0);
}

TEST(HwLimit, WorkFromTraces) {
  Soc soc = load_soc("Ascend910B1");
  Trace a = trace_of(small_kernel());
  UnitWork w = work_from_traces(soc, {{&a, CoreType::AIV}, {&a, CoreType::AIV}});
  EXPECT_DOUBLE_EQ(w.mte2_bytes, 2048);
  EXPECT_DOUBLE_EQ(w.mte2_hbm_bytes, 1024);  // both blocks read the same 1 KiB of GM
  EXPECT_DOUBLE_EQ(w.mte3_bytes, 1024);
  EXPECT_GT(w.vector_bytes, 0);
  HwLimit h = hw_limit(soc, w);
  EXPECT_GT(h.time_us, 0);
  // The simulated time can never beat the limit.
  SimResult r = simulate(soc, {{&a, CoreType::AIV}, {&a, CoreType::AIV}});
  EXPECT_GT(r.task_duration_us, h.time_us);
}

// A kernel that reads its input twice (statistics, then normalisation) needs HBM for the
// first read only: the second may hit in L2, so T_HW bounds it by L2's rate, not HBM's.
TEST(HwLimit, ReReadBytesAreBoundByL2NotHbm) {
  Soc soc = load_soc("Ascend910B1");
  constexpr uint64_t kSlice = 64 * 1024;
  std::vector<Trace> traces;
  for (uint64_t b = 0; b < 48; ++b) {
    const uint64_t gm_lo = (uint64_t(1) << 30) + b * kSlice;
    traces.push_back(trace_of({copy_in(0, gm_lo, kSlice, 11), copy_in(0, gm_lo, kSlice, 12)}));
  }
  std::vector<BlockTrace> blocks;
  for (const auto& t : traces) blocks.push_back({&t, CoreType::AIV});
  const UnitWork w = work_from_traces(soc, blocks);
  const double unique = 48.0 * kSlice;
  EXPECT_DOUBLE_EQ(w.mte2_bytes, 2 * unique);
  EXPECT_DOUBLE_EQ(w.mte2_hbm_bytes, unique);
  const HwLimit h = hw_limit(soc, w);
  const double mte2_cores = soc.aiv_cores * soc.paths.at("gm_to_ub").core_bytes_per_cycle +
                            soc.aic_cores * soc.paths.at("gm_to_l1").core_bytes_per_cycle;
  const double expect_cycles = std::max(2 * unique / std::min(mte2_cores, soc.l2_write_bytes_per_cycle),
                                        unique / soc.hbm_read_bytes_per_cycle);
  EXPECT_NEAR(h.unit_us.at("mte2"), soc.cycles_to_us(expect_cycles), 1e-9);
  // Counting every byte at HBM's rate, as before, would be the stricter (wrong) bound.
  EXPECT_LT(h.unit_us.at("mte2"), soc.cycles_to_us(2 * unique / soc.hbm_read_bytes_per_cycle));
  EXPECT_GT(simulate(soc, blocks).task_duration_us, h.time_us);

  // Reads that bypass L2 cannot hit there: every byte counts against HBM.
  std::vector<Trace> bypass;
  for (const auto& t : traces) {
    Trace c = t;
    for (auto& r : c.records) r.cache_mode = kCacheModeDisable;
    bypass.push_back(std::move(c));
  }
  std::vector<BlockTrace> bypass_blocks;
  for (const auto& t : bypass) bypass_blocks.push_back({&t, CoreType::AIV});
  EXPECT_DOUBLE_EQ(work_from_traces(soc, bypass_blocks).mte2_hbm_bytes, 2 * unique);
}
