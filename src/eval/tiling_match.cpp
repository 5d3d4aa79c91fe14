#include "eval/tiling_match.h"

#include <algorithm>

namespace aoc::eval {

std::string tiling_fingerprint(const CandidateReport& r, const std::vector<std::string>& cases) {
  std::string fp;
  for (const auto& name : cases) {
    const auto c = std::find_if(r.cases.begin(), r.cases.end(), [&](const CaseResult& x) { return x.name == name; });
    if (c == r.cases.end() || c->tiling_digest.empty() || c->config_read_by_kernel) return "";
    fp += c->tiling_digest + ";";
  }
  return fp;
}

CandidateReport tiling_only_report(const Candidate& c, build::Builder& builder, CandidateEvalOptions opt,
                                   const std::vector<std::string>& cases) {
  opt.case_set = "public";
  opt.only_cases = cases;
  opt.tiling_only = true;
  opt.stop_at_failure = true;
  return evaluate_candidate(c, builder, opt);
}

std::string tiling_only_fingerprint(const Candidate& c, build::Builder& builder, CandidateEvalOptions opt,
                                    const std::vector<std::string>& cases) {
  const CandidateReport r = tiling_only_report(c, builder, std::move(opt), cases);
  return r.verdict == Verdict::Ok ? tiling_fingerprint(r, cases) : "";
}

}  // namespace aoc::eval
