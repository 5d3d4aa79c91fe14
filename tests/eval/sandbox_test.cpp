// The sandbox: exit codes, signals, wall-clock timeout killing every process the child
// started (also those that left its session), capped output, closed stdin, address-space
// limit, and in the namespace mode the child's view: its folder the only writable place,
// the rest of the file system hidden or read-only, its own PID and network namespaces.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <filesystem>

#include "base/sandbox.h"

namespace fs = std::filesystem;

namespace {

// A private working folder per call, removed afterwards.
struct Workdir {
  fs::path path;
  Workdir() {
    std::string t = (fs::temp_directory_path() / "aoc_sandbox_test_XXXXXX").string();
    path = ::mkdtemp(t.data());
  }
  ~Workdir() { fs::remove_all(path); }
};

aoc::base::SandboxResult sh(const std::string& script, aoc::base::SandboxLimits l = {}) {
  Workdir w;
  return aoc::base::run_sandboxed({"/bin/sh", "-c", script}, w.path, l);
}

bool namespaced() { return sh("true").isolation == "namespaces"; }

}  // namespace

TEST(Sandbox, ExitCodeAndOutput) {
  const auto r = sh("echo hello; exit 3");
  ASSERT_TRUE(r.started) << r.start_error;
  EXPECT_TRUE(r.exited);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.output, "hello\n");
}

TEST(Sandbox, SignalIsReportedByName) {
  const auto r = sh("kill -SEGV $$");
  EXPECT_FALSE(r.exited);
  EXPECT_EQ(r.signal, SIGSEGV);
  EXPECT_NE(aoc::base::signal_description(r.signal).find("SIGSEGV"), std::string::npos);
}

TEST(Sandbox, TimeoutKillsTheWholeGroupIncludingBackgroundChildren) {
  aoc::base::SandboxLimits l;
  l.wall_seconds = 1;
  Workdir w;
  const fs::path marker = w.path / "marker";
  // A background child that would write the marker after 3 s, and a parent that hangs.
  const auto r = aoc::base::run_sandboxed({"/bin/sh", "-c", "(sleep 3; touch " + marker.string() + ") & sleep 60"}, w.path, l);
  EXPECT_TRUE(r.timed_out);
  EXPECT_LT(r.wall_seconds, 10);
  ::sleep(4);
  EXPECT_FALSE(fs::exists(marker)) << "a process of the group survived the timeout";
}

// setsid() leaves the process group (which a group kill misses); the PID namespace
// takes the process with it when the child ends, timeout or not.
TEST(Sandbox, ProcessesThatLeftTheSessionDieWithTheChild) {
  if (!namespaced()) GTEST_SKIP() << "namespaces unavailable here: " << sh("true").isolation;
  for (const bool hang : {false, true}) {
    aoc::base::SandboxLimits l;
    l.wall_seconds = 2;
    Workdir w;
    const fs::path marker = w.path / "marker";
    const std::string escape = "setsid sh -c 'sleep 3; touch " + marker.string() + "' & ";
    const auto r = aoc::base::run_sandboxed({"/bin/sh", "-c", escape + (hang ? "sleep 60" : "exit 0")}, w.path, l);
    EXPECT_EQ(r.timed_out, hang);
    ::sleep(4);
    EXPECT_FALSE(fs::exists(marker)) << "a setsid child survived (hang=" << hang << ")";
  }
}

TEST(Sandbox, OnlyItsFolderIsWritable) {
  if (!namespaced()) GTEST_SKIP() << "namespaces unavailable here: " << sh("true").isolation;
  Workdir w;
  const fs::path outside = fs::temp_directory_path() / ("aoc_sandbox_outside_" + std::to_string(::getpid()));
  fs::remove(outside);
  const auto r = aoc::base::run_sandboxed({"/bin/sh", "-c", "touch inside && echo in; touch " + outside.string() +
                                                     " 2>/dev/null && echo out; touch /usr/aoc_x 2>/dev/null && echo usr; "
                                                     "echo $TMPDIR"},
                               w.path, {});
  EXPECT_EQ(r.output, "in\n" + w.path.string() + "\n");
  EXPECT_TRUE(fs::exists(w.path / "inside"));
  EXPECT_FALSE(fs::exists(outside));
}

TEST(Sandbox, SeesOnlyWhatItNeedsAndNoOtherProcess) {
  if (!namespaced()) GTEST_SKIP() << "namespaces unavailable here: " << sh("true").isolation;
  // The source tree (and the build cache in it) is not part of the view; /usr is, read-only.
  const auto r = sh(std::string("test -e ") + AOC_SOURCE_DIR + " && echo source; test -d /usr/lib && echo usr; "
                    "ls /proc | grep -c '^[0-9]'");
  EXPECT_EQ(r.output.substr(0, 4), "usr\n") << r.output;
  // The shell and ls (and grep): a handful of processes, none of the host's.
  EXPECT_LE(std::stoi(r.output.substr(4)), 6) << r.output;
}

TEST(Sandbox, OutputIsCapped) {
  aoc::base::SandboxLimits l;
  l.output_bytes = 1000;
  const auto r = sh("yes 0123456789 | head -c 100000", l);
  EXPECT_EQ(r.output.size(), 1000u);
  EXPECT_TRUE(r.output_truncated);
}

TEST(Sandbox, StdinIsClosed) {
  const auto r = sh("cat; echo done");
  EXPECT_EQ(r.output, "done\n");
}

TEST(Sandbox, AddressSpaceLimitStopsBigAllocations) {
  aoc::base::SandboxLimits l;
  l.address_space_bytes = 64ull << 20;
  // head -c of /dev/zero into a shell variable needs more than 64 MiB.
  const auto r = sh("x=$(head -c 100000000 /dev/zero | tr '\\0' a); echo ${#x}", l);
  EXPECT_NE(r.output, "100000000\n");
}

TEST(Sandbox, NetworkIsolationIsRecorded) {
  // Either outcome is legitimate (it depends on the system); the result must say which,
  // and an isolated child must see no interface but lo.
  const auto r = sh("cat /proc/net/dev | tail -n +3 | cut -d: -f1 | tr -d ' '");
  if (r.network_isolated) {
    EXPECT_EQ(r.output, "lo\n");
  }
  EXPECT_FALSE(r.isolation.empty());
  SUCCEED() << "isolation: " << r.isolation;
}

TEST(Sandbox, ProcessGroupModeStillRuns) {
  aoc::base::SandboxLimits l;
  l.namespaces = false;
  const auto r = sh("echo $TMPDIR | grep -c aoc_sandbox_test", l);
  EXPECT_EQ(r.output, "1\n");
  EXPECT_EQ(r.isolation, "process group (namespaces turned off)");
  EXPECT_FALSE(r.network_isolated);
}
