#include "bank/ranking.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <sstream>

namespace aoc::bank {
namespace {

std::string num(double v, int digits = 2) {
  std::ostringstream os;
  os.setf(std::ios::fixed);
  os.precision(digits);
  os << v;
  return os.str();
}

std::string signed_num(double v) { return (v >= 0 ? "+" : "") + num(v); }

std::string lower(std::string s) {
  for (auto& ch : s) ch = char(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

double similarity(const Context& a, const std::string& a_category, const Target& t, std::string& why) {
  const Context& b = t.context;
  double s = 0;
  std::vector<std::string> parts;
  if (!a_category.empty() && a_category == t.category) {
    s += 0.25;
    parts.push_back("same category");
  }
  if (t.profiled && !a.bound.empty() && a.bound == b.bound) {
    s += 0.25;
    parts.push_back("same bound " + a.bound);
  }
  if (!a.dtypes.empty() && !b.dtypes.empty()) {
    std::set<std::string> x(a.dtypes.begin(), a.dtypes.end()), y(b.dtypes.begin(), b.dtypes.end()), u = x;
    u.insert(y.begin(), y.end());
    size_t common = 0;
    for (const auto& d : x) common += y.count(d);
    s += 0.2 * double(common) / double(u.size());
    parts.push_back("dtypes " + std::to_string(common) + "/" + std::to_string(u.size()));
  }
  if (!a.shape_class.empty() && a.shape_class == b.shape_class) {
    s += 0.1;
    parts.push_back("same size class");
  }
  if (t.profiled && a.vec_mte2_ratio && b.vec_mte2_ratio && *a.vec_mte2_ratio > 0 && *b.vec_mte2_ratio > 0) {
    const double d = std::abs(std::log(*a.vec_mte2_ratio / *b.vec_mte2_ratio));
    const double close = std::max(0.0, 1.0 - d / std::log(4.0));
    s += 0.1 * close;
    parts.push_back("vec/mte2 " + num(*a.vec_mte2_ratio) + " vs " + num(*b.vec_mte2_ratio));
  }
  if (t.profiled && a.cores && a.cores == b.cores) {
    s += 0.1;
    parts.push_back("same cores");
  }
  std::string joined;
  for (const auto& p : parts) joined += (joined.empty() ? "" : ", ") + p;
  why = joined.empty() ? "nothing in common" : joined;
  return s;
}

}  // namespace

ScoreTerms score_entry(const Entry& e, const Target& t, const AdoptionStats& adoption) {
  ScoreTerms s;
  std::vector<std::string> why;
  const bool text_only = e.kind == kText;
  if (e.motif != kUnclassified) {
    auto it = t.states.find(e.motif);
    if (it == t.states.end()) {
      why.push_back("motif " + e.motif + " unknown to the detector (0)");
    } else if (it->second == aoc::rewrite::State::Applicable) {
      s.applicability = 1;
      why.push_back(e.motif + " applicable in target (" + signed_num(kWeightApplicability) + ")");
    } else if (it->second == aoc::rewrite::State::Present) {
      s.applicability = -0.5;
      why.push_back(e.motif + " already present (" + signed_num(-0.5 * kWeightApplicability) + ")");
    } else {
      s.applicability = -1;
      why.push_back(e.motif + " not applicable (" + signed_num(-kWeightApplicability) + ")");
    }
  }
  std::string sim_why;
  s.similarity = similarity(e.context, e.category, t, sim_why);
  why.push_back("similarity " + num(s.similarity) + ": " + sim_why + " (" + signed_num(kWeightSimilarity * s.similarity) +
                ")");
  if (!text_only && e.geomean && *e.geomean > 0) {
    s.effect = std::clamp(std::log(*e.geomean) / std::log(1.1), -1.0, 1.0);
    why.push_back("effect " + num(*e.geomean, 3) + "x (" + signed_num(kWeightEffect * s.effect) + ")");
  }
  if (e.motif != kUnclassified) {
    s.adoption = (double(adoption.helped) + 1.0) / (double(adoption.tried) + 2.0) - 0.5;
    why.push_back("adoption " + std::to_string(adoption.helped) + "/" + std::to_string(adoption.tried) + " helped (" +
                  signed_num(kWeightAdoption * s.adoption) + ")");
  }
  if (text_only && !t.keywords.empty()) {
    const std::string text = lower(e.title + " " + e.description + " " + e.bottleneck + " " + e.category);
    size_t found = 0;
    std::string hits;
    for (const auto& k : t.keywords)
      if (!k.empty() && text.find(lower(k)) != std::string::npos) {
        ++found;
        hits += (hits.empty() ? "" : ",") + k;
      }
    s.text = double(found) / double(t.keywords.size());
    why.push_back("text " + std::to_string(found) + "/" + std::to_string(t.keywords.size()) + " keywords" +
                  (hits.empty() ? "" : " (" + hits + ")") + " (" + signed_num(kWeightText * s.text) + ")");
  }
  s.total = kWeightApplicability * s.applicability + kWeightSimilarity * s.similarity + kWeightEffect * s.effect +
            kWeightAdoption * s.adoption + kWeightText * s.text;
  for (const auto& w : why) s.why += (s.why.empty() ? "" : "; ") + w;
  return s;
}

std::vector<Ranked> rank_entries(const std::vector<Entry>& entries, const Target& t,
                                 const std::function<AdoptionStats(const std::string&)>& adoption) {
  std::map<std::string, AdoptionStats> cache;
  std::vector<Ranked> out;
  for (const auto& e : entries) {
    auto it = cache.find(e.motif);
    if (it == cache.end()) it = cache.emplace(e.motif, adoption ? adoption(e.motif) : AdoptionStats{}).first;
    out.push_back({e, score_entry(e, t, it->second)});
  }
  std::stable_sort(out.begin(), out.end(), [](const Ranked& a, const Ranked& b) { return a.score.total > b.score.total; });
  return out;
}

std::vector<std::pair<std::string, int64_t>> applicable_motifs(const std::vector<Ranked>& ranked, const Target& t) {
  std::vector<std::pair<std::string, int64_t>> out;
  std::set<std::string> seen;
  for (const auto& r : ranked) {
    auto it = t.states.find(r.entry.motif);
    if (it == t.states.end() || it->second != aoc::rewrite::State::Applicable || !seen.insert(r.entry.motif).second) continue;
    out.emplace_back(r.entry.motif, r.entry.id);
  }
  return out;
}

nlohmann::json to_json(const Ranked& r) {
  return {{"id", r.entry.id},
          {"kind", r.entry.kind},
          {"motif", r.entry.motif},
          {"op", r.entry.op},
          {"title", r.entry.title},
          {"score", r.score.total},
          {"terms",
           {{"applicability", r.score.applicability},
            {"similarity", r.score.similarity},
            {"effect", r.score.effect},
            {"adoption", r.score.adoption},
            {"text", r.score.text}}},
          {"why", r.score.why}};
}

}  // namespace aoc::bank
