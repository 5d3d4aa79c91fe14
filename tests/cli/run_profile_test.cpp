// `ascendopt run` as a profiling front end: per-case profile in JSON with msprof field
// names, T_HW, identical cycles for identical runs, --trace and --csv files.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_support.h"

namespace fs = std::filesystem;

namespace {


using aoc::testing::CliRun;
CliRun run(const std::string& args) { return aoc::testing::run_ascendopt(args); }

const std::string kAdd = "run " + std::string(AOC_SOURCE_DIR) + "/ops/elementwise/add";

nlohmann::json run_json(const std::string& extra) {
  CliRun r = run(kAdd + " --seed 5 --json " + extra);
  EXPECT_EQ(r.status, 0) << r.out;
  return nlohmann::json::parse(r.out, nullptr, false);
}

fs::path temp_path(const std::string& name) {
  return fs::temp_directory_path() / ("aoc_run_profile_" + std::to_string(::getpid()) + "_" + name);
}

TEST(RunProfile, JsonHasMsprofFieldsAndHardwareLimit) {
  auto j = run_json("--case aligned_2d_fp16");
  ASSERT_FALSE(j.is_discarded());
  const auto& c = j["ops"][0]["cases"][0];
  ASSERT_TRUE(c["profile"].is_object()) << c.dump();
  const auto& p = c["profile"];
  for (const char* f : {"aiv_time", "aiv_vec_time", "aiv_scalar_time", "aiv_mte2_time", "aiv_mte3_time",
                        "aiv_vec_ratio", "aiv_scalar_ratio", "aiv_mte2_ratio", "aiv_mte3_ratio"})
    EXPECT_TRUE(p["fields"].contains(f)) << f;
  EXPECT_GT(p["task_duration_us"].get<double>(), 0);
  EXPECT_LE(p["core_time_us"]["min"].get<double>(), p["core_time_us"]["avg"].get<double>());
  EXPECT_LE(p["core_time_us"]["avg"].get<double>(), p["core_time_us"]["max"].get<double>());
  EXPECT_FALSE(p["bound_pipe"].get<std::string>().empty());
  EXPECT_GT(p["t_hw_us"].get<double>(), 0);
  EXPECT_LT(p["t_hw_us"].get<double>(), p["task_duration_us"].get<double>());
  EXPECT_FALSE(p["t_hw_bound"].get<std::string>().empty());
  EXPECT_GT(p["kernel_scalar_blocks"].get<uint64_t>(), 0u);
  EXPECT_TRUE(c["hazards"].empty());
}

TEST(RunProfile, IdenticalRunsGiveIdenticalCycles) {
  auto a = run_json("");
  auto b = run_json("");
  ASSERT_FALSE(a.is_discarded() || b.is_discarded());
  const auto& ca = a["ops"][0]["cases"];
  const auto& cb = b["ops"][0]["cases"];
  ASSERT_EQ(ca.size(), cb.size());
  for (size_t i = 0; i < ca.size(); ++i) {
    EXPECT_EQ(ca[i]["sim_us"], cb[i]["sim_us"]) << ca[i]["name"];
    EXPECT_EQ(ca[i]["profile"]["fields"], cb[i]["profile"]["fields"]) << ca[i]["name"];
    EXPECT_EQ(ca[i]["profile"]["kernel_scalar_blocks"], cb[i]["profile"]["kernel_scalar_blocks"]);
  }
}

TEST(RunProfile, TableShowsProfileAndHardwareLimit) {
  CliRun r = run(kAdd + " --seed 5 --case prime_1021_fp16");
  EXPECT_EQ(r.status, 0) << r.out;
  for (const char* s : {"aiv_vec", "aiv_scalar", "aiv_mte2", "aiv_mte3", "core min/avg/max", "T_HW"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
}

TEST(RunProfile, TraceAndCsvFiles) {
  const fs::path trace = temp_path("trace.json");
  const fs::path csv = temp_path("csv");
  CliRun r = run(kAdd + " --seed 5 --case tiny_fp16 --case prime_1021_fp16 --trace " + trace.string() + " --csv " +
                 csv.string());
  ASSERT_EQ(r.status, 0) << r.out;
  std::ifstream t(trace);
  auto tj = nlohmann::json::parse(t, nullptr, false);
  ASSERT_FALSE(tj.is_discarded()) << "trace is not JSON";
  EXPECT_NE(tj.dump().find("\"X\""), std::string::npos);
  for (const char* c : {"tiny_fp16", "prime_1021_fp16"}) {
    std::ifstream s(csv / "add" / c / "op_summary.csv"), p(csv / "add" / c / "PipeUtilization.csv");
    std::stringstream ss, ps;
    ss << s.rdbuf();
    ps << p.rdbuf();
    EXPECT_NE(ss.str().find("Task Duration(us)"), std::string::npos) << c;
    EXPECT_NE(ps.str().find("block_id"), std::string::npos) << c;
  }
  fs::remove(trace);
  fs::remove_all(csv);
}

TEST(RunProfile, TraceNeedsTheSimulator) {
  CliRun r = run(kAdd + " --no-sim --trace /tmp/x.json");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("--no-sim"), std::string::npos) << r.out;
}

}  // namespace
