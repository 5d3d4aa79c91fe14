// Ranking bank entries for a target kernel (docs/bank.md). Each entry gets score terms, and
// their weighted sum orders the entries:
//   applicability  the entry's motif is absent-and-applicable in the target (+1), already
//                  present (-0.5), not applicable (-1); text entries and unknown motifs 0
//   similarity     0..1: same category, same busiest pipe, shared dtypes, same size class,
//                  close vector/MTE2 ratio, same core count between the entry's source and target
//   effect         measured speedup of the kernel over its rewound form, ln(s)/ln(1.1) in -1..1
//   adoption       Laplace-smoothed share of guided uses of the motif that helped, minus 0.5
//   text           text entries only: share of the target's keywords found in the entry's text
// total = 2 applicability + similarity + effect + 0.5 adoption + text.
#pragma once
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "bank/entry.h"
#include "bank/store.h"
#include "rewrite/state.h"

namespace aoc::bank {

struct Target {
  std::string op, category, hash, dir;
  Context context;
  bool profiled = false;                      // context has the simulator's numbers (bound, ratio)
  std::map<std::string, aoc::rewrite::State> states;  // by motif
  std::vector<std::string> keywords;          // op, category, dtypes, bound pipe words
};

struct ScoreTerms {
  double applicability = 0, similarity = 0, effect = 0, adoption = 0, text = 0;
  double total = 0;
  std::string why;  // each term with its reason
};

struct Ranked {
  Entry entry;
  ScoreTerms score;
};

inline constexpr double kWeightApplicability = 2.0, kWeightSimilarity = 1.0, kWeightEffect = 1.0,
                        kWeightAdoption = 0.5, kWeightText = 1.0;

ScoreTerms score_entry(const Entry& e, const Target& t, const AdoptionStats& adoption);
// Best first; ties keep the bank's order.
std::vector<Ranked> rank_entries(const std::vector<Entry>& entries, const Target& t,
                                 const std::function<AdoptionStats(const std::string& motif)>& adoption);
// The distinct motifs of ranked entries that are applicable in the target, best first, with the
// id of the best entry of each.
std::vector<std::pair<std::string, int64_t>> applicable_motifs(const std::vector<Ranked>& ranked, const Target& t);

nlohmann::json to_json(const Ranked& r);

}  // namespace aoc::bank
