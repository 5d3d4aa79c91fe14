// A one-node Slurm cluster for a test: scripts/slurm-local.sh starts munged, slurmctld and slurmd
// in a folder of the test's (localhost only), SLURM_CONF points the Slurm commands at it, and the
// daemons stop when the object goes. Where the daemons cannot start the test is skipped with the
// reason, unless ASCENDOPT_REQUIRE_SLURM=1 (set by .ci/run) makes that a failure.
#pragma once
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <string>

namespace aoc::testing {

class SlurmCluster {
 public:
  explicit SlurmCluster(const std::filesystem::path& dir, int cpus = 2) : dir_(dir) {
    const std::string script = std::string(AOC_SOURCE_DIR) + "/scripts/slurm-local.sh";
    const std::string out = run(script + " start '" + dir.string() + "' " + std::to_string(cpus) + " 2>&1");
    const std::string prefix = "export SLURM_CONF=";
    const size_t at = out.find(prefix);
    if (status_ != 0 || at == std::string::npos) {
      why_ = "the Slurm daemons did not start: " + out;
      return;
    }
    std::string conf = out.substr(at + prefix.size());
    conf = conf.substr(0, conf.find('\n'));
    ::setenv("SLURM_CONF", conf.c_str(), 1);
    up_ = true;
  }
  ~SlurmCluster() {
    run(std::string(AOC_SOURCE_DIR) + "/scripts/slurm-local.sh stop '" + dir_.string() + "' 2>&1");
    ::unsetenv("SLURM_CONF");
  }
  SlurmCluster(const SlurmCluster&) = delete;
  SlurmCluster& operator=(const SlurmCluster&) = delete;

  bool up() const { return up_; }
  const std::string& why() const { return why_; }
  static bool required() {
    const char* v = std::getenv("ASCENDOPT_REQUIRE_SLURM");
    return v != nullptr && std::string(v) == "1";
  }

 private:
  std::string run(const std::string& cmd) {
    std::string out;
    FILE* f = ::popen(cmd.c_str(), "r");
    if (f == nullptr) return out;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
    const int st = ::pclose(f);
    status_ = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return out;
  }

  std::filesystem::path dir_;
  bool up_ = false;
  int status_ = -1;
  std::string why_;
};

}  // namespace aoc::testing

// Skips the test when the cluster is not up (fails instead where ASCENDOPT_REQUIRE_SLURM=1).
#define AOC_REQUIRE_SLURM(cluster)                                               \
  do {                                                                           \
    if (!(cluster).up()) {                                                       \
      if (aoc::testing::SlurmCluster::required()) FAIL() << (cluster).why();     \
      GTEST_SKIP() << (cluster).why();                                           \
    }                                                                            \
  } while (0)
