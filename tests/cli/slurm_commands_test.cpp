// `rewind` and `tune-bench` with --executor slurm on a real one-node cluster
// (scripts/slurm-local.sh) give what they give locally: the same rewind verdicts, speedups and
// entry ids in the bank, the same tuner table; a rerun finds every task finished and neither
// submits nor stores anything again.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "cli_support.h"
#include "scratch_dir.h"
#include "slurm_cluster.h"

namespace {

namespace fs = std::filesystem;
using aoc::testing::run_ascendopt;

nlohmann::json kernels_of(const std::string& out) {
  const auto j = nlohmann::json::parse(out.substr(out.find('{')));
  nlohmann::json k = nlohmann::json::array();
  for (const auto& kernel : j.at("kernels")) {
    nlohmann::json motifs = nlohmann::json::array();
    for (const auto& m : kernel.at("motifs"))
      motifs.push_back({m.at("motif"), m.at("status"), m.at("speedup"), m.at("entry_id")});
    k.push_back({kernel.at("op"), motifs});
  }
  return k;
}

size_t submissions(const fs::path& state) {
  std::ifstream in(state / "jobs.json");
  return in ? nlohmann::json::parse(in).size() : 0;
}

TEST(SlurmCommands, RewindMergesEachTasksEntriesAsALocalRewindStoresThem) {
  aoc::testing::ScratchDir tmp("slurm-rewind");
  aoc::testing::SlurmCluster cluster(tmp.path() / "cluster");
  AOC_REQUIRE_SLURM(cluster);
  const fs::path ops(AOC_SOURCE_DIR "/ops");
  const std::string kernels = (ops / "elementwise/add/expert").string() + " " + (ops / "activation/relu/expert").string() +
                              " --motif double_buffer --case rank1_small_fp32 --case prime_1021_fp16 --no-store --json";
  const auto local = run_ascendopt("rewind " + kernels + " --bank " + (tmp.path() / "local.sqlite").string() +
                                       " --work-dir " + (tmp.path() / "lw").string(), false);
  ASSERT_EQ(local.status, 0) << local.out;
  const std::string slurm = "rewind " + kernels + " --executor slurm --poll-seconds 0.2 --bank " +
                            (tmp.path() / "slurm.sqlite").string() + " --work-dir " + (tmp.path() / "sw").string();
  const auto first = run_ascendopt(slurm, false);
  ASSERT_EQ(first.status, 0) << run_ascendopt(slurm).out;
  EXPECT_EQ(kernels_of(first.out), kernels_of(local.out));
  EXPECT_EQ(kernels_of(first.out).size(), 2u);
  const auto again = run_ascendopt(slurm);
  ASSERT_EQ(again.status, 0) << again.out;
  EXPECT_NE(again.out.find("2 of 2 kernel(s) already rewound"), std::string::npos) << again.out;
  EXPECT_EQ(submissions(tmp.path() / "sw" / "cluster" / "slurm"), 1u);
  const auto listed = run_ascendopt("bank list --bank " + (tmp.path() / "slurm.sqlite").string() + " --json", false);
  const auto local_listed = run_ascendopt("bank list --bank " + (tmp.path() / "local.sqlite").string() + " --json", false);
  ASSERT_EQ(listed.status, 0) << listed.out;
  EXPECT_EQ(nlohmann::json::parse(listed.out).at("entries").size(), 2u) << "the rerun merged nothing twice";
  EXPECT_EQ(nlohmann::json::parse(local_listed.out).at("entries").size(), 2u);
}

TEST(SlurmCommands, TuneBenchOverTasksPrintsTheLocalTable) {
  aoc::testing::ScratchDir tmp("slurm-tune");
  aoc::testing::SlurmCluster cluster(tmp.path() / "cluster");
  AOC_REQUIRE_SLURM(cluster);
  const fs::path ops(AOC_SOURCE_DIR "/ops");
  const std::string args = "tune-bench " + (ops / "activation/relu").string() + " " + (ops / "elementwise/add").string() +
                           " --budgets 4 --no-verify --json";
  const auto local = run_ascendopt(args, false);
  ASSERT_EQ(local.status, 0) << local.out;
  const auto slurm = run_ascendopt(args + " --executor slurm --poll-seconds 0.2 --out " + (tmp.path() / "t").string(), false);
  ASSERT_EQ(slurm.status, 0) << slurm.out;
  auto ops_of = [](const std::string& out) {
    auto j = nlohmann::json::parse(out);
    for (auto& op : j.at("ops")) op.erase("seconds_per_evaluation");  // wall time, not a result
    return j.at("ops");
  };
  EXPECT_EQ(ops_of(slurm.out), ops_of(local.out));
  const auto wrong = run_ascendopt(args + " --out " + (tmp.path() / "x").string());
  EXPECT_EQ(wrong.status, 2);
  EXPECT_NE(wrong.out.find("apply to --executor slurm"), std::string::npos) << wrong.out;
}

}  // namespace
