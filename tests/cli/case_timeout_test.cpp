// Every command that evaluates candidates takes --timeout, the wall-clock limit of a case, and
// refuses one that is not a positive number before it builds or runs anything.
#include <gtest/gtest.h>

#include <string>

#include "cli_support.h"

namespace {

const std::string kAbs = AOC_SOURCE_DIR "/ops/elementwise/abs";

TEST(CaseTimeout, ZeroNegativeOrNotANumberIsAUsageErrorInEveryCommand) {
  const std::string commands[] = {"eval " + kAbs,     "optimize " + kAbs,    "tune " + kAbs,
                                  "tune-bench " + kAbs, "rewind " + kAbs + "/expert", "llm-propose " + kAbs,
                                  "bench " + kAbs,    "ops list --times " + kAbs};
  for (const auto& c : commands)
    for (const std::string bad : {"0", "-3", "soon"}) {
      const auto r = aoc::testing::run_ascendopt(c + " --timeout " + bad);
      EXPECT_EQ(r.status, 2) << c << " --timeout " << bad << "\n" << r.out;
      EXPECT_NE(r.out.find("--timeout: must be a positive number of seconds, not " + bad), std::string::npos)
          << c << "\n" << r.out;
    }
}

TEST(CaseTimeout, TheDefaultIsShownInTheHelp) {
  const auto r = aoc::testing::run_ascendopt("eval --help");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("--timeout FLOAT:SECONDS>0=120"), std::string::npos) << r.out;
}

}  // namespace
