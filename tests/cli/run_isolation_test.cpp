// `ascendopt run` evaluates through the sandbox as `ascendopt eval` does: a spinning kernel
// ends with verdict timeout after --timeout, a segfaulting one with verdict crash while `run`
// itself finishes and reports, a kernel starting a shell is stopped, a package without
// golden.cpp is a clear error, and an honest package still passes.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_support.h"

namespace fs = std::filesystem;

namespace {

using aoc::testing::CliRun;

fs::path bad_kernel(const std::string& name) { return fs::path(AOC_SOURCE_DIR) / "tests/data/bad_kernels" / name; }

// `ascendopt run FOLDER --case tiny_fp16 --json ...`: exit status and the report (stdout only).
struct RunReport {
  int status = -1;
  nlohmann::json json;
  std::string out;
};

RunReport run_json(const fs::path& folder, const std::string& extra = "") {
  RunReport r;
  const CliRun c = aoc::testing::run_ascendopt("run " + folder.string() + " --case tiny_fp16 --seed 7 --json " + extra,
                                               false);
  r.status = c.status;
  r.out = c.out;
  r.json = nlohmann::json::parse(c.out, nullptr, false);
  return r;
}

const nlohmann::json& first_case(const RunReport& r) { return r.json["ops"][0]["cases"][0]; }

TEST(RunIsolation, SpinningKernelEndsWithTimeoutAfterTheLimit) {
  const RunReport r = run_json(bad_kernel("infinite_loop"), "--no-sim --timeout 2");
  EXPECT_EQ(r.status, 1) << r.out;
  ASSERT_FALSE(r.json.is_discarded()) << r.out;
  EXPECT_FALSE(r.json["passed"].get<bool>());
  EXPECT_EQ(first_case(r)["verdict"], "timeout") << r.out;
  EXPECT_NE(first_case(r)["message"].get<std::string>().find("limit of 2 s"), std::string::npos) << r.out;
}

TEST(RunIsolation, SegfaultingKernelIsCrashAndRunReports) {
  const RunReport r = run_json(bad_kernel("segfault"), "--no-sim");
  EXPECT_EQ(r.status, 1) << "run itself did not finish normally: " << r.out;
  ASSERT_FALSE(r.json.is_discarded()) << r.out;
  EXPECT_EQ(first_case(r)["verdict"], "crash") << r.out;
  EXPECT_NE(first_case(r)["message"].get<std::string>().find("SIGSEGV"), std::string::npos) << r.out;
}

TEST(RunIsolation, KernelStartingAShellIsStopped) {
  const fs::path marker = "/tmp/aoc_hostile_spawn";  // what the kernel's shell would create
  fs::remove(marker);
  const RunReport r = run_json(bad_kernel("pasted_system"), "--no-sim");
  EXPECT_EQ(r.status, 1) << r.out;
  ASSERT_FALSE(r.json.is_discarded()) << r.out;
  // The API-use check sees the pasted name before any case runs (the sandbox's own stop of
  // the same kernel is tests/eval/hostile_kernels_test.cpp).
  EXPECT_EQ(r.json["ops"][0]["verdict"], "rejected") << r.out;
  EXPECT_NE(r.json["ops"][0]["message"].get<std::string>().find("`system`"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(marker)) << "the kernel's shell ran";
}

TEST(RunIsolation, MissingGoldenIsAClearError) {
  const fs::path copy = fs::temp_directory_path() / ("aoc_run_no_golden_" + std::to_string(::getpid())) / "add";
  fs::create_directories(copy);
  const fs::path add = fs::path(AOC_SOURCE_DIR) / "ops/elementwise/add";
  for (const char* part : {"op.toml", "op_host", "op_kernel"}) fs::copy(add / part, copy / part, fs::copy_options::recursive);
  const RunReport r = run_json(copy, "--no-sim");
  fs::remove_all(copy.parent_path());
  EXPECT_EQ(r.status, 1) << r.out;
  ASSERT_FALSE(r.json.is_discarded()) << r.out;
  const std::string error = r.json["ops"][0]["setup_error"];
  EXPECT_NE(error.find("golden.cpp"), std::string::npos) << r.out;
}

TEST(RunIsolation, HonestPackagePassesInTheSandbox) {
  const RunReport r = run_json(fs::path(AOC_SOURCE_DIR) / "ops/elementwise/add");
  EXPECT_EQ(r.status, 0) << r.out;
  ASSERT_FALSE(r.json.is_discarded()) << r.out;
  EXPECT_TRUE(r.json["passed"].get<bool>());
  EXPECT_EQ(first_case(r)["verdict"], "ok") << r.out;
  EXPECT_GT(first_case(r)["sim_us"].get<double>(), 0);
  EXPECT_FALSE(r.json["ops"][0]["isolation"].get<std::string>().empty());
}

TEST(RunIsolation, BadTimeoutIsAClearError) {
  const CliRun r = aoc::testing::run_ascendopt("run " AOC_SOURCE_DIR "/ops/elementwise/add --timeout 0");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("--timeout must be a positive"), std::string::npos) << r.out;
}

}  // namespace
