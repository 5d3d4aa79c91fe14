// Ranking a hand-built bank for a target: each score term moves entries the way
// bank/ranking.h says, and the printed reasons name the terms.
#include <gtest/gtest.h>

#include <filesystem>

#include "bank/ranking.h"
#include "bank/store.h"
#include "scratch_dir.h"

namespace fs = std::filesystem;
using namespace aoc::bank;

namespace {

Entry measured(const std::string& motif, double speedup, const std::string& category, const std::string& bound) {
  Entry e;
  e.kind = speedup > 1.02 ? kPositive : kNegative;
  e.motif = motif;
  e.op = "src_" + motif;
  e.category = category;
  e.geomean = speedup;
  e.context.dtypes = {"float16"};
  e.context.bound = bound;
  e.context.shape_class = "large";
  e.title = motif + " entry";
  return e;
}

Target target() {
  Target t;
  t.op = "relu";
  t.category = "activation";
  t.context.dtypes = {"float16", "float32"};
  t.context.bound = "aiv_mte2_time";
  t.context.shape_class = "large";
  t.profiled = true;
  using aoc::rewrite::State;
  t.states = {{"double_buffer", State::Applicable}, {"event_sync", State::Applicable}, {"ub_bank_pad", State::NotApplicable},
              {"redundant_sync", State::Present}};
  t.keywords = {"relu", "activation", "float16", "mte2"};
  return t;
}

std::vector<std::string> order(const std::vector<Ranked>& r) {
  std::vector<std::string> out;
  for (const auto& x : r) out.push_back(x.entry.title);
  return out;
}

const std::function<AdoptionStats(const std::string&)> kNoAdoption = [](const std::string&) { return AdoptionStats{}; };

}  // namespace

TEST(BankRanking, ApplicableBeforePresentBeforeNotApplicable) {
  const auto r = rank_entries({measured("ub_bank_pad", 1.3, "activation", "aiv_mte2_time"),
                               measured("redundant_sync", 1.3, "activation", "aiv_mte2_time"),
                               measured("double_buffer", 1.03, "other", "aiv_vec_time")},
                              target(), kNoAdoption);
  EXPECT_EQ(order(r), (std::vector<std::string>{"double_buffer entry", "redundant_sync entry", "ub_bank_pad entry"}));
  EXPECT_NE(r[0].score.why.find("double_buffer applicable in target (+2.00)"), std::string::npos) << r[0].score.why;
  EXPECT_NE(r[1].score.why.find("already present"), std::string::npos) << r[1].score.why;
  EXPECT_NE(r[2].score.why.find("not applicable (-2.00)"), std::string::npos) << r[2].score.why;
}

TEST(BankRanking, SimilarSourceAndLargerEffectRankHigher) {
  // Same motif and effect: the entry whose source is like the target wins.
  auto r = rank_entries({measured("double_buffer", 1.05, "reduction", "aiv_vec_time"),
                         measured("double_buffer", 1.05, "activation", "aiv_mte2_time")},
                        target(), kNoAdoption);
  EXPECT_EQ(r[0].entry.category, "activation");
  EXPECT_GT(r[0].score.similarity, r[1].score.similarity);
  EXPECT_NE(r[0].score.why.find("same category, same bound aiv_mte2_time, dtypes 1/2, same size class"),
            std::string::npos)
      << r[0].score.why;
  // Same context: the larger measured effect wins; a negative entry scores below zero effect.
  r = rank_entries({measured("event_sync", 1.00, "activation", "aiv_mte2_time"),
                    measured("event_sync", 1.10, "activation", "aiv_mte2_time"),
                    measured("event_sync", 0.90, "activation", "aiv_mte2_time")},
                   target(), kNoAdoption);
  EXPECT_NEAR(r[0].score.effect, 1.0, 1e-9);
  EXPECT_NEAR(r[1].score.effect, 0.0, 1e-9);
  EXPECT_LT(r[2].score.effect, -0.9);
  EXPECT_NE(r[0].score.why.find("effect 1.100x (+1.00)"), std::string::npos) << r[0].score.why;
}

// Adoption comes from the bank file: a motif that helped when tried overtakes one that did not.
TEST(BankRanking, AdoptionRecordsReorderMotifs) {
  aoc::testing::ScratchDir tmp("bank-ranking");
  Bank bank(tmp.path() / "bank.sqlite");
  bank.insert(measured("double_buffer", 1.05, "activation", "aiv_mte2_time"));
  bank.insert(measured("event_sync", 1.05, "activation", "aiv_mte2_time"));
  auto stats = [&](const std::string& m) { return bank.stats(m); };
  auto first = rank_entries(bank.entries(), target(), stats);
  EXPECT_EQ(first[0].entry.motif, "double_buffer");  // a tie keeps the bank's order
  for (int i = 0; i < 3; ++i) bank.record({2, "event_sync", "t" + std::to_string(i), "relu", true, 1.04});
  bank.record({1, "double_buffer", "t9", "relu", false, 0.99});
  auto then = rank_entries(bank.entries(), target(), stats);
  EXPECT_EQ(then[0].entry.motif, "event_sync");
  EXPECT_NE(then[0].score.why.find("adoption 3/3 helped (+0.15)"), std::string::npos) << then[0].score.why;
  EXPECT_EQ(applicable_motifs(then, target()),
            (std::vector<std::pair<std::string, int64_t>>{{"event_sync", 2}, {"double_buffer", 1}}));
}

TEST(BankRanking, TextEntriesRankByTheTargetsKeywords) {
  Entry about, other;
  about.title = "Keep MTE2 busy in activation kernels";
  about.description = "float16 tiles of relu-like operators are copy bound";
  other.title = "Blocked matmul";
  other.description = "cube unit tiling";
  const auto r = rank_entries({other, about}, target(), kNoAdoption);
  EXPECT_EQ(r[0].entry.title, about.title);
  EXPECT_NEAR(r[0].score.text, 1.0, 1e-9);
  EXPECT_NE(r[0].score.why.find("text 4/4 keywords (relu,activation,float16,mte2)"), std::string::npos)
      << r[0].score.why;
  EXPECT_NEAR(r[1].score.text, 0.0, 1e-9);
}
