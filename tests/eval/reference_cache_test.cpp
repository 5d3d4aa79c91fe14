// The reference cache: a second candidate of an operator evaluated with the same seed takes
// the inputs and golden outputs of each case from the cache, and its verdicts, errors and
// simulated times are exactly those of an evaluation that computed them; a wrong or
// replaying kernel is still caught with cached references. The cache keeps to its budget.
#include <gtest/gtest.h>

#include "eval/reference_cache.h"
#include "eval_test_support.h"

using namespace aoc::eval;
using namespace aoc::eval::testing;

namespace {

const std::vector<std::string> kCases = {"tiny_fp16", "prime_1021_fp16"};

void expect_same_cases(const CandidateReport& a, const CandidateReport& b) {
  ASSERT_EQ(a.cases.size(), b.cases.size());
  for (size_t i = 0; i < a.cases.size(); ++i) {
    const CaseResult &x = a.cases[i], &y = b.cases[i];
    EXPECT_EQ(x.verdict, y.verdict) << x.name;
    EXPECT_EQ(x.message, y.message) << x.name;
    EXPECT_EQ(x.sim_us, y.sim_us) << x.name;
    EXPECT_EQ(x.t_hw_us, y.t_hw_us) << x.name;
    ASSERT_EQ(x.outputs.size(), y.outputs.size()) << x.name;
    for (size_t o = 0; o < x.outputs.size(); ++o) {
      EXPECT_EQ(x.outputs[o].cmp.max_rel, y.outputs[o].cmp.max_rel) << x.name;
      EXPECT_EQ(x.outputs[o].cmp.mean_rel, y.outputs[o].cmp.mean_rel) << x.name;
      EXPECT_EQ(x.outputs[o].cmp.worst_index, y.outputs[o].cmp.worst_index) << x.name;
    }
  }
}

TEST(ReferenceCache, SecondCandidateReusesReferencesWithIdenticalResults) {
  ReferenceCache& cache = ReferenceCache::shared();
  cache.clear();
  const CandidateEvalOptions o = test_options(kCases);
  const CandidateReport computed = evaluate_dir(add_package(), o);
  ASSERT_EQ(computed.verdict, Verdict::Ok) << computed.message;
  EXPECT_EQ(cache.size(), kCases.size());
  const size_t hits = cache.hits();
  const CandidateReport reused = evaluate_dir(add_package(), o);
  EXPECT_EQ(cache.hits(), hits + kCases.size()) << "the second evaluation did not use the cached references";
  expect_same_cases(computed, reused);

  // Another seed draws other inputs: no hit.
  CandidateEvalOptions other = o;
  other.seed = o.seed + 1;
  const CandidateReport fresh = evaluate_dir(add_package(), other);
  EXPECT_EQ(cache.hits(), hits + kCases.size());
  EXPECT_EQ(fresh.verdict, Verdict::Ok) << fresh.message;
}

TEST(ReferenceCache, WrongAndReplayingKernelsAreCaughtWithCachedReferences) {
  ReferenceCache& cache = ReferenceCache::shared();
  cache.clear();
  const CandidateEvalOptions o = test_options({"tiny_fp16"});
  ASSERT_EQ(evaluate_dir(add_package(), o).verdict, Verdict::Ok);
  const size_t hits = cache.hits();
  const CandidateReport wrong = evaluate_dir(bad_kernel("wrong_result"), o);
  EXPECT_EQ(wrong.verdict, Verdict::WrongResult) << wrong.message;
  const CandidateReport replay = evaluate_dir(bad_kernel("output_cache"), o);
  EXPECT_EQ(replay.verdict, Verdict::Suspicious) << replay.message;
  EXPECT_EQ(cache.hits(), hits + 2);
}

std::shared_ptr<CaseReference> reference_of(size_t doubles) {
  auto r = std::make_shared<CaseReference>();
  r->outputs.resize(1);
  r->outputs[0].ok = true;
  r->outputs[0].outputs.push_back(std::vector<double>(doubles, 1.0));
  return r;
}

TEST(ReferenceCache, KeepsToItsBudget) {
  ReferenceCache cache(1000 * sizeof(double));
  cache.put("too large", reference_of(600));  // more than half the budget
  EXPECT_EQ(cache.size(), 0u);
  for (int i = 0; i < 10; ++i) cache.put("entry " + std::to_string(i), reference_of(200));
  EXPECT_EQ(cache.size(), 5u);
  EXPECT_EQ(cache.find("entry 0"), nullptr) << "the oldest entry should have gone first";
  ASSERT_NE(cache.find("entry 9"), nullptr);
  EXPECT_EQ(cache.find("entry 9")->outputs[0].outputs[0].size(), 200u);
}

TEST(ReferenceCache, AnEntryServesRunsOfAsManyTrialsOrFewer) {
  ReferenceCache cache(1 << 20);
  const auto one = reference_of(10);
  cache.put("case", one);
  EXPECT_EQ(cache.find("case", 1), one);
  EXPECT_EQ(cache.find("case", 2), nullptr) << "a one-trial entry cannot serve the gate's two trials";
  const auto two = reference_of(10);
  two->outputs.push_back(two->outputs.front());
  cache.put("case", two);
  EXPECT_EQ(cache.find("case", 2), two);
  EXPECT_EQ(cache.find("case", 1), two);
  cache.put("case", one);  // fewer trials than the kept entry: ignored
  EXPECT_EQ(cache.find("case", 2), two);
  EXPECT_EQ(cache.size(), 1u);
}

}  // namespace
