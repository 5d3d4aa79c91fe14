// The ascendopt program: --help everywhere, parseable --json, exit status and
// error messages that say what to do.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_support.h"

namespace fs = std::filesystem;

namespace {

using aoc::testing::CliRun;
fs::path ascendopt() { return aoc::testing::ascendopt_binary(); }
CliRun run(const std::string& args, bool merge_stderr = true) { return aoc::testing::run_ascendopt(args, merge_stderr); }

}  // namespace

TEST(Cli, BinaryExists) { ASSERT_TRUE(fs::exists(ascendopt())) << "build the ascendopt target first"; }

TEST(Cli, EverySubcommandHasHelp) {
  for (const char* sub : {"", "run", "ops", "ops list"}) {
    CliRun r = run(std::string(sub) + " --help");
    EXPECT_EQ(r.status, 0) << sub;
    EXPECT_NE(r.out.find("Usage:"), std::string::npos) << sub << ": " << r.out;
  }
  CliRun r = run("run --help");
  for (const char* opt : {"--soc", "--cases", "--seed", "--json"}) EXPECT_NE(r.out.find(opt), std::string::npos) << opt;
}

TEST(Cli, RunJsonIsParseableAndReportsEachCase) {
  CliRun r = run("run " AOC_SOURCE_DIR "/ops/elementwise/add --json --seed 3 --case tiny_fp16 --case rank1_small_fp32",
              false);
  ASSERT_EQ(r.status, 0) << r.out;
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["seed"], 3);
  EXPECT_TRUE(j["passed"].get<bool>());
  ASSERT_EQ(j["ops"].size(), 1u);
  const auto& op = j["ops"][0];
  EXPECT_EQ(op["op"], "add");
  ASSERT_EQ(op["cases"].size(), 2u);
  for (const auto& c : op["cases"]) {
    EXPECT_EQ(c["verdict"], "ok");
    EXPECT_TRUE(c["outputs"][0].contains("max_rel"));
    EXPECT_TRUE(c["outputs"][0].contains("worst_position"));
    EXPECT_TRUE(c.contains("sim_us"));
  }
}

TEST(Cli, TableOutputAndSeedForReproduction) {
  CliRun r = run("run " AOC_SOURCE_DIR "/ops/elementwise/add --seed 5 --case tiny_fp16 --no-sim");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("tiny_fp16"), std::string::npos);
  EXPECT_NE(r.out.find("pass"), std::string::npos);
  EXPECT_NE(r.out.find("--seed 0x5"), std::string::npos) << r.out;
}

TEST(Cli, ErrorsSayWhatToDoAndExitNonZero) {
  CliRun missing = run("run /nonexistent/op");
  EXPECT_NE(missing.status, 0);
  EXPECT_NE(missing.out.find("nonexistent"), std::string::npos) << missing.out;
  const fs::path none = fs::temp_directory_path() / ("aoc_cli_empty_" + std::to_string(::getpid()));
  fs::create_directories(none);
  CliRun empty = run("run " + none.string() + " --no-sim");
  fs::remove_all(none);
  EXPECT_NE(empty.status, 0);
  EXPECT_NE(empty.out.find("op.toml"), std::string::npos) << empty.out;
  CliRun seed = run("run " AOC_SOURCE_DIR "/ops/elementwise/add --seed banana");
  EXPECT_EQ(seed.status, 2);
  EXPECT_NE(seed.out.find("not a number"), std::string::npos) << seed.out;
  CliRun nosub = run("");
  EXPECT_NE(nosub.status, 0);
  // A bad build setting in the environment is an error that names it, not an abort.
  CliRun level = aoc::testing::run_command("AOC_KERNEL_OPT=-O9 " + ascendopt().string() + " eval " AOC_SOURCE_DIR
                                           "/ops/elementwise/add --case tiny_fp16 --no-store 2>&1");
  EXPECT_EQ(level.status, 1) << level.out;
  EXPECT_NE(level.out.find("AOC_KERNEL_OPT=-O9 is not an optimisation level (-O0, -O1, -O2, -O3, -Os or -Og)"),
            std::string::npos)
      << level.out;
}

TEST(Cli, OpsListJson) {
  CliRun r = run("ops list " AOC_SOURCE_DIR "/ops --json", false);
  ASSERT_EQ(r.status, 0) << r.out;
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_GE(j.size(), 3u);
  bool found = false;
  for (const auto& op : j) found = found || op["name"] == "softmax";
  EXPECT_TRUE(found);
}

TEST(Cli, EvalHiddenDrawIsSizedAndRepeatableFromItsSeed) {
  const std::string cmd = "eval " AOC_SOURCE_DIR "/ops/reduction/reduce_sum --cases hidden --hidden-count 2 "
                          "--hidden-max-elements 2048 --seed 1 --no-store --json";
  ::setenv("ASCENDOPT_HIDDEN_SEED", "0x2a", 1);
  CliRun a = run(cmd, false);
  ASSERT_EQ(a.status, 0) << a.out;
  nlohmann::json j = nlohmann::json::parse(a.out);
  EXPECT_EQ(j["hidden_seed"], 42);
  ASSERT_EQ(j["candidates"].size(), 1u);
  const auto& cases = j["candidates"][0]["cases"];
  ASSERT_EQ(cases.size(), 2u);
  ::setenv("ASCENDOPT_HIDDEN_SEED", "42", 1);
  CliRun b = run(cmd, false);
  ::unsetenv("ASCENDOPT_HIDDEN_SEED");
  ASSERT_EQ(b.status, 0) << b.out;
  EXPECT_EQ(nlohmann::json::parse(b.out)["candidates"][0]["cases"][1]["shapes"], cases[1]["shapes"]);
  EXPECT_EQ(run("eval " AOC_SOURCE_DIR "/ops/reduction/reduce_sum --cases hidden --hidden-count -1").status, 2);
}

TEST(Cli, RunDrawsAsManyHiddenCasesAsAskedWithinTheCap) {
  ::setenv("ASCENDOPT_HIDDEN_SEED", "7", 1);
  CliRun r = run("run " AOC_SOURCE_DIR "/ops/reduction/reduce_sum --cases all --hidden-count 2 "
                 "--hidden-max-elements 2048 --seed 1 --no-sim --json",
                 false);
  ::unsetenv("ASCENDOPT_HIDDEN_SEED");
  ASSERT_EQ(r.status, 0) << r.out;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  size_t hidden = 0;
  for (const auto& c : j["ops"][0]["cases"]) {
    if (c["name"].get<std::string>().rfind("hidden_", 0) != 0) continue;
    ++hidden;
    EXPECT_EQ(c["verdict"], "ok") << c.dump();
  }
  EXPECT_EQ(hidden, 2u);
  EXPECT_EQ(run("run " AOC_SOURCE_DIR "/ops/reduction/reduce_sum --cases hidden --hidden-count -1").status, 2);
}
