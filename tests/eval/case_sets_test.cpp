// The evaluator's case sets: hidden cases are drawn in the parent from the package's
// [hidden] parameters, reproducibly from their seed, and outputs shaped unlike any input
// (reduce_sum's y drops x's last axis) are sized by the package's own InferShape, loaded in
// the parent, so the isolated run and the golden agree on them.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "eval/eval_test_support.h"

namespace aoc::eval {
namespace {

using testing::evaluate_dir;
using testing::source_root;
using testing::test_options;

std::filesystem::path reduce_sum() { return source_root() / "ops" / "reduction" / "reduce_sum"; }

CandidateEvalOptions hidden_options(const std::string& set, uint64_t seed) {
  CandidateEvalOptions o = test_options({});
  o.case_set = set;
  o.hidden.seed = seed;
  o.hidden.count = 3;
  o.hidden.max_elements = 4096;
  return o;
}

std::vector<std::string> shapes_of(const CandidateReport& r) {
  std::vector<std::string> s;
  for (const auto& c : r.cases) s.push_back(c.name + " " + c.dtype + " " + c.shapes);
  return s;
}

TEST(CaseSets, HiddenDrawOfAReductionRunsWithItsInferredOutputShape) {
  const CandidateReport r = evaluate_dir(reduce_sum(), hidden_options("hidden", 7));
  ASSERT_STREQ(to_string(r.verdict), "ok") << r.message;
  ASSERT_EQ(r.cases.size(), 3u);
  for (const auto& c : r.cases) {
    EXPECT_EQ(c.name.rfind("hidden", 0), 0u) << c.name;
    ASSERT_EQ(c.outputs.size(), 1u) << c.name;
    EXPECT_TRUE(c.sim_us.has_value()) << c.name;
  }
  EXPECT_EQ(r.case_set, "hidden");
}

TEST(CaseSets, TheSameSeedDrawsTheSameCasesAndAnotherSeedOthers) {
  const CandidateReport a = evaluate_dir(reduce_sum(), hidden_options("hidden", 11));
  const CandidateReport b = evaluate_dir(reduce_sum(), hidden_options("hidden", 11));
  const CandidateReport c = evaluate_dir(reduce_sum(), hidden_options("hidden", 12));
  ASSERT_STREQ(to_string(a.verdict), "ok") << a.message;
  EXPECT_EQ(shapes_of(a), shapes_of(b));
  EXPECT_NE(shapes_of(a), shapes_of(c));
}

TEST(CaseSets, AllIsThePublicCasesFollowedByTheHiddenOnes) {
  CandidateEvalOptions o = hidden_options("all", 7);
  o.only_cases = {"aligned_2d_fp32", "hidden_0"};
  const CandidateReport r = evaluate_dir(reduce_sum(), o);
  ASSERT_STREQ(to_string(r.verdict), "ok") << r.message;
  std::set<std::string> names;
  for (const auto& c : r.cases) names.insert(c.name);
  EXPECT_EQ(names, (std::set<std::string>{"aligned_2d_fp32", "hidden_0"}));
}

TEST(CaseSets, AnUnknownSetIsAnErrorThatNamesTheChoices) {
  const CandidateReport r = evaluate_dir(reduce_sum(), hidden_options("secret", 1));
  EXPECT_STREQ(to_string(r.verdict), "error");
  EXPECT_NE(r.message.find("public, hidden or all"), std::string::npos) << r.message;
}

}  // namespace
}  // namespace aoc::eval
