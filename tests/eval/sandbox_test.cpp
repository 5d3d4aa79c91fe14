// The sandbox: exit codes, signals, wall-clock timeout killing the whole process
// group, capped output, closed stdin, address-space limit.
#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>

#include "eval/sandbox.h"

using namespace aoc::eval;
namespace fs = std::filesystem;

namespace {
SandboxResult sh(const std::string& script, SandboxLimits l = {}) {
  return run_sandboxed({"/bin/sh", "-c", script}, fs::temp_directory_path(), l);
}
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
  EXPECT_NE(signal_description(r.signal).find("SIGSEGV"), std::string::npos);
}

TEST(Sandbox, TimeoutKillsTheWholeGroupIncludingBackgroundChildren) {
  SandboxLimits l;
  l.wall_seconds = 1;
  const fs::path marker = fs::temp_directory_path() / ("aoc_sandbox_marker_" + std::to_string(::getpid()));
  fs::remove(marker);
  // A background child that would write the marker after 3 s, and a parent that hangs.
  const auto r = sh("(sleep 3; touch " + marker.string() + ") & sleep 60", l);
  EXPECT_TRUE(r.timed_out);
  EXPECT_LT(r.wall_seconds, 10);
  ::sleep(4);
  EXPECT_FALSE(fs::exists(marker)) << "a process of the group survived the timeout";
}

TEST(Sandbox, OutputIsCapped) {
  SandboxLimits l;
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
  SandboxLimits l;
  l.address_space_bytes = 64ull << 20;
  // head -c of /dev/zero into a shell variable needs more than 64 MiB.
  const auto r = sh("x=$(head -c 100000000 /dev/zero | tr '\\0' a); echo ${#x}", l);
  EXPECT_NE(r.output, "100000000\n");
}

TEST(Sandbox, NetworkIsolationIsRecorded) {
  // Either outcome is legitimate (it depends on the kernel's settings); the result
  // must say which, and an isolated child must see no usable interface but lo.
  const auto r = sh("cat /proc/net/dev | tail -n +3 | cut -d: -f1 | tr -d ' '");
  if (r.network_isolated) {
    EXPECT_EQ(r.output, "lo\n");
  }
  SUCCEED() << "network isolated: " << r.network_isolated;
}
