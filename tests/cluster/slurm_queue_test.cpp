// What squeue and sacct print, parsed into array elements; the scripts a submission is made of.
#include <gtest/gtest.h>

#include "cluster/slurm_queue.h"
#include "cluster/slurm_script.h"

namespace {

using namespace aoc::cluster;

TEST(SlurmQueue, ExpandsPendingRangesAndKeepsStatesAndReasons) {
  const auto s = parse_squeue("12_3|RUNNING|None\n12_[4-6,9%2]|PENDING|JobArrayTaskLimit\n13_0|COMPLETED|None\n"
                              "garbage line\n14|RUNNING|None\n15_[x]|PENDING|None\n");
  ASSERT_EQ(s.size(), 6u);
  EXPECT_EQ(s[0].job, "12");
  EXPECT_EQ(s[0].index, 3u);
  EXPECT_EQ(s[0].state, "RUNNING");
  std::vector<size_t> pending;
  for (size_t i = 1; i <= 4; ++i) {
    EXPECT_EQ(s[i].state, "PENDING");
    EXPECT_EQ(s[i].reason, "JobArrayTaskLimit");
    pending.push_back(s[i].index);
  }
  EXPECT_EQ(pending, (std::vector<size_t>{4, 5, 6, 9}));
  EXPECT_EQ(s[5].job, "13");
  EXPECT_EQ(s[5].state, "COMPLETED");
}

TEST(SlurmQueue, SacctStatesDropTheirDetail) {
  const auto s = parse_sacct("7_1|CANCELLED by 0\n7_2|COMPLETED\n7_3.batch|COMPLETED\n");
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].state, "CANCELLED");
  EXPECT_EQ(s[1].index, 2u);
}

TEST(SlurmQueue, TerminalStates) {
  for (const char* t : {"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "PREEMPTED", "NODE_FAIL", "OUT_OF_MEMORY"})
    EXPECT_TRUE(is_terminal_state(t)) << t;
  for (const char* t : {"PENDING", "RUNNING", "COMPLETING", "SUSPENDED", "CONFIGURING", "REQUEUED"})
    EXPECT_FALSE(is_terminal_state(t)) << t;
}

TEST(SlurmScript, QuotesEveryWordAndWritesTheExitStatus) {
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
  Task t{"relu-optimize-b8-s1", "/runs/relu b8", {"/bin/ascendopt", "optimize", "a'b"}, {{"SEED", "42"}}};
  const std::string s = task_script(t, "/work dir");
  EXPECT_NE(s.find("export SEED='42'\n"), std::string::npos) << s;
  EXPECT_NE(s.find("cd '/work dir' || exit 1"), std::string::npos) << s;
  EXPECT_NE(s.find("'/bin/ascendopt' 'optimize' 'a'\\''b' > '/runs/relu b8/log.txt' 2>&1"), std::string::npos) << s;
  EXPECT_NE(s.find("echo \"$status\" > '/runs/relu b8/exit_status'"), std::string::npos) << s;
}

TEST(SlurmScript, ArrayOptions) {
  SlurmOptions o;
  o.partition = "npu";
  o.time_limit = "30";
  o.cpus_per_task = 2;
  o.sbatch_args = {"--account=kernels"};
  const std::string s = array_script(o, 5, 2, "/state/submission-1", "/work");
  for (const char* line : {"#SBATCH --array=0-4%2\n", "#SBATCH --partition=npu\n", "#SBATCH --time=30\n",
                           "#SBATCH --cpus-per-task=2\n", "#SBATCH --account=kernels\n", "#SBATCH --chdir=/work\n",
                           "#SBATCH --output=/state/submission-1/slurm-%A_%a.out\n"})
    EXPECT_NE(s.find(line), std::string::npos) << line << " in\n" << s;
  EXPECT_EQ(array_script(SlurmOptions{}, 3, 0, "/s", "/w").find("%"), array_script(SlurmOptions{}, 3, 0, "/s", "/w").find("%A"));
}

}  // namespace
