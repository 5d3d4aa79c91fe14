// The parent's backstop against a kernel that forges its own trace: correct Add kernels that
// clear, disable or shrink their trace (tests/data/trace_forgery) are `suspicious` through the
// volume accounting (eval/write_volume.h) and the write bound (sim/time_bound.h), with the
// static source check off, so that these checks are what stops them.
#include <gtest/gtest.h>

#include "eval_test_support.h"

using namespace aoc::eval;
using namespace aoc::eval::testing;

namespace {

constexpr const char* kAligned = "aligned_2d_fp16";         // [8, 2048] fp16: 32768 output bytes, several cores
// Figures below are of the test seed (0x5eed): how many output bytes differ from the poison.
constexpr const char* kLarge = "llama3_8b_prefill_2048";    // [2048, 4096] fp16: 16 MiB of output

CandidateReport eval_dir(const std::filesystem::path& dir, const char* case_name) {
  CandidateEvalOptions o = test_options({case_name});
  o.check_sources = false;  // the forged kernels name aoc:: internals, which the source check refuses
  o.limits.wall_seconds = 120;
  return evaluate_dir(dir, o);
}

CandidateReport eval_forged(const std::string& name, const char* case_name) {
  return eval_dir(source_root() / "tests" / "data" / "trace_forgery" / name, case_name);
}

std::string describe(const CandidateReport& r) { return std::string(to_string(r.verdict)) + ": " + r.message; }

// The forged kernel computed the right answer: only the time is doubted.
void expect_correct_outputs(const CandidateReport& r) {
  ASSERT_EQ(r.cases.size(), 1u);
  ASSERT_EQ(r.cases[0].outputs.size(), 1u);
  EXPECT_TRUE(r.cases[0].outputs[0].cmp.pass);
}

}  // namespace

TEST(TraceBackstop, TheHonestKernelIsOkAboveItsWriteBound) {
  const auto r = eval_dir(add_package(), kAligned);
  ASSERT_EQ(r.verdict, Verdict::Ok) << describe(r);
  const CaseResult& c = r.cases.at(0);
  ASSERT_TRUE(c.sim_us && c.write_bound_us);
  // Of the 32768 output bytes, 32734 differ from the poison byte 0xFF on this seed's inputs (the
  // rest happen to be 0xFF): 1.497 us of launch + 32734 B at 1873.3 B/cycle and 1.85 GHz.
  EXPECT_NEAR(*c.write_bound_us, 0.47 + 1900 / 1850.0 + 32734 / (2400.0 / 1.85 + 576) / 1850.0, 1e-6);
  EXPECT_GT(*c.sim_us, *c.write_bound_us);
}

TEST(TraceBackstop, AClearedTraceIsSuspicious) {
  const auto r = eval_forged("trace_clear", kAligned);
  ASSERT_EQ(r.verdict, Verdict::Suspicious) << describe(r);
  expect_correct_outputs(r);
  EXPECT_NE(r.message.find("output z: 32734 bytes differ from the poison fill, but the trace stores only 0 bytes"),
            std::string::npos)
      << r.message;
}

TEST(TraceBackstop, ADisabledTraceIsSuspicious) {
  const auto r = eval_forged("trace_disabled", kAligned);
  ASSERT_EQ(r.verdict, Verdict::Suspicious) << describe(r);
  expect_correct_outputs(r);
  EXPECT_NE(r.message.find("output z: 32734 bytes differ from the poison fill, but the trace stores only 0 bytes"),
            std::string::npos)
      << r.message;
}

TEST(TraceBackstop, RecordsShrunkTo32BytesAreSuspicious) {
  const auto r = eval_forged("trace_shrunk", kAligned);
  ASSERT_EQ(r.verdict, Verdict::Suspicious) << describe(r);
  expect_correct_outputs(r);
  EXPECT_NE(r.message.find("output z: 32734 bytes differ from the poison fill, but the trace stores only "),
            std::string::npos)
      << r.message;
}

// On a large output the write bound alone is above what an empty trace simulates to.
TEST(TraceBackstop, AClearedTraceOfALargeOutputIsBelowTheWriteBound) {
  const auto r = eval_forged("trace_clear", kLarge);
  ASSERT_EQ(r.verdict, Verdict::Suspicious) << describe(r);
  const CaseResult& c = r.cases.at(0);
  ASSERT_TRUE(c.sim_us && c.write_bound_us);
  EXPECT_LT(*c.sim_us, *c.write_bound_us);
  EXPECT_NE(r.message.find("below the least time the case's writes need"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("16760585 bytes written"), std::string::npos) << r.message;
}
