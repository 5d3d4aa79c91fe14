// The speed every report gives (eval/report_perf.h): the geomean simulated time over the
// performance cases only, and no speed at all when one of them failed or did not run.
#include <gtest/gtest.h>

#include <cmath>

#include "eval/report_perf.h"

using aoc::eval::CandidateReport;
using aoc::eval::CaseResult;
using aoc::eval::Verdict;

namespace {

aoc::package::OpPackage package() {
  aoc::package::OpPackage p;
  for (const char* n : {"small_edge", "decode", "prefill"}) {
    aoc::package::CaseSpec c;
    c.name = n;
    c.perf = std::string(n) != "small_edge";
    c.source = c.perf ? "LLaMA-3-8B" : "";
    p.cases.push_back(c);
  }
  return p;
}

CaseResult result(const std::string& name, double us, Verdict v = Verdict::Ok) {
  CaseResult c;
  c.name = name;
  c.verdict = v;
  c.sim_us = us;
  c.t_hw_us = us / 2;
  return c;
}

}  // namespace

TEST(PerfSpeed, GeomeanOverThePerformanceCasesOnly) {
  CandidateReport r;
  r.verdict = Verdict::Ok;
  r.cases = {result("small_edge", 1000.0), result("decode", 2.0), result("prefill", 8.0)};
  const auto s = aoc::eval::perf_speed(r, package());
  EXPECT_EQ(s.perf_cases, 2u);
  EXPECT_EQ(s.perf_cases_run, 2u);
  ASSERT_TRUE(s.geomean_us.has_value());
  EXPECT_DOUBLE_EQ(*s.geomean_us, 4.0);  // sqrt(2 * 8); the 1000 us edge case does not count
  EXPECT_NE(aoc::eval::perf_speed_text(s).find("over the 2 performance cases, the package's speed): 4.00 us"),
            std::string::npos)
      << aoc::eval::perf_speed_text(s);
}

TEST(PerfSpeed, NoSpeedWhenAPerformanceCaseFailedOrDidNotRun) {
  CandidateReport r;
  r.cases = {result("decode", 2.0), result("prefill", 8.0, Verdict::WrongResult)};
  EXPECT_FALSE(aoc::eval::perf_speed(r, package()).geomean_us.has_value());

  r.cases = {result("small_edge", 1.0), result("decode", 2.0)};  // as with --case decode
  const auto s = aoc::eval::perf_speed(r, package());
  EXPECT_FALSE(s.geomean_us.has_value());
  EXPECT_EQ(s.perf_cases_run, 1u);
  EXPECT_NE(aoc::eval::perf_speed_text(s).find("1 of 2 ran"), std::string::npos);

  EXPECT_NE(aoc::eval::perf_speed_text(aoc::eval::perf_speed(r, aoc::package::OpPackage{})).find("no performance cases"),
            std::string::npos);
}
