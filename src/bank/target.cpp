#include "bank/target.h"

#include <algorithm>
#include <set>

#include "bank/features.h"

namespace aoc::bank {

Target make_target(const aoc::eval::Candidate& c, const std::vector<aoc::rewrite::MotifState>& states,
                   const aoc::eval::CandidateReport* report) {
  Target t;
  t.op = c.package.name;
  t.category = c.package.category;
  t.hash = c.hash;
  t.dir = c.dir.string();
  for (const auto& s : states) t.states[s.motif] = s.state;
  if (report && !report->cases.empty()) {
    t.context = context_of(*report);
    t.profiled = !t.context.bound.empty();
  } else {
    std::set<std::string> dtypes;
    int64_t largest = 0;
    for (const auto& cs : c.package.cases) {
      dtypes.insert(c.package.variant_label(cs.variant));
      if (!c.package.inputs.empty()) {
        auto it = cs.shapes.find(c.package.inputs[0].name);
        if (it != cs.shapes.end()) {
          int64_t n = 1;
          for (int64_t d : it->second) n *= d;
          largest = std::max(largest, n);
        }
      }
    }
    t.context.dtypes.assign(dtypes.begin(), dtypes.end());
    if (largest > 0) t.context.shape_class = shape_class(largest);
  }
  t.keywords = {t.op, t.category};
  for (const auto& d : t.context.dtypes) t.keywords.push_back(d);
  if (!t.context.bound.empty()) {
    // "aiv_mte2_time" -> "mte2"
    std::string pipe = t.context.bound;
    if (pipe.rfind("aiv_", 0) == 0 || pipe.rfind("aic_", 0) == 0) pipe = pipe.substr(4);
    if (pipe.size() > 5 && pipe.compare(pipe.size() - 5, 5, "_time") == 0) pipe.resize(pipe.size() - 5);
    t.keywords.push_back(pipe);
  }
  t.keywords.erase(std::remove(t.keywords.begin(), t.keywords.end(), std::string()), t.keywords.end());
  return t;
}

}  // namespace aoc::bank
