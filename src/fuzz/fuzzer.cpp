#include "fuzz/fuzzer.h"

#include <chrono>
#include <fstream>
#include <regex>
#include <set>
#include <stdexcept>

#include "base/published_file.h"
#include "base/rng.h"
#include "fuzz/shrink.h"
#include "package/case_gen.h"
#include "package/case_toml.h"

namespace aoc::fuzz {

namespace {

using aoc::eval::CaseResult;
using aoc::eval::Verdict;
using aoc::package::CaseSpec;
using Clock = std::chrono::steady_clock;

constexpr uint64_t kDrawStream = 0x66757a7aull;  // "fuzz"
constexpr const char* kFoundName = "fuzz_1";     // the name of a printed case

std::string shape_text(const std::vector<int64_t>& s) {
  std::string t = "[";
  for (size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
  return t + "]";
}

class Runner {
 public:
  Runner(const aoc::eval::Candidate& cand, aoc::build::Builder& builder, const FuzzOptions& opt)
      : cand_(cand), builder_(builder), opt_(opt), start_(Clock::now()) {}

  double elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
  bool out_of_time() const { return elapsed() >= opt_.time_budget_s; }

  // Runs `cases` appended after the package's public cases: each case's inputs then come from
  // its place there, as they will once the case is pasted at the end of op.toml.
  std::vector<CaseResult> run(const std::vector<CaseSpec>& cases) {
    aoc::eval::Candidate c = cand_;
    aoc::eval::CandidateEvalOptions o = opt_.eval;
    o.seed = opt_.seed;
    o.case_set = "public";
    o.only_cases.clear();
    for (const auto& cs : cases) {
      c.package.cases.push_back(cs);
      o.only_cases.push_back(cs.name);
    }
    aoc::eval::CandidateReport r = aoc::eval::evaluate_candidate(c, builder_, o);
    if (r.cases.size() != cases.size())
      throw std::runtime_error("the operator cannot be run (" + std::string(aoc::eval::to_string(r.verdict)) +
                               "): " + r.message);
    return r.cases;
  }

 private:
  const aoc::eval::Candidate& cand_;
  aoc::build::Builder& builder_;
  const FuzzOptions& opt_;
  Clock::time_point start_;
};

// The failure of `first`, shrunk: the smallest case found that fails with the same signature.
Finding shrink(Runner& runner, const aoc::package::OpPackage& p, const FuzzOptions& opt, CaseSpec first,
               const CaseResult& seen, const FuzzProgress& progress) {
  Finding f;
  f.signature = failure_signature(aoc::eval::to_string(seen.verdict), seen.message);
  f.verdict = aoc::eval::to_string(seen.verdict);
  f.message = seen.message;
  f.first_shape = shape_text(first_shape(p, first));
  first.name = kFoundName;
  CaseSpec best = first;
  auto fails_the_same = [&](const CaseSpec& c) {
    ++f.shrink_runs;
    const CaseResult r = runner.run({c}).front();
    if (r.verdict == Verdict::Ok ||
        failure_signature(aoc::eval::to_string(r.verdict), r.message) != f.signature)
      return false;
    f.verdict = aoc::eval::to_string(r.verdict);
    f.message = r.message;
    return true;
  };
  f.reproduced = fails_the_same(best);
  for (bool smaller = f.reproduced; smaller;) {
    smaller = false;
    for (const CaseSpec& c : smaller_cases(p, best)) {
      if (f.shrink_runs >= opt.max_shrink_runs || runner.out_of_time()) break;
      if (fails_the_same(c)) {
        best = c;
        smaller = true;
        if (progress) progress("  shrunk to " + shape_text(first_shape(p, best)));
        break;
      }
    }
  }
  f.minimal_shape = shape_text(first_shape(p, best));
  f.case_toml = aoc::package::case_entry_toml(p, best);
  return f;
}

void save(const FuzzOptions& opt, const FuzzReport& r) {
  if (opt.state_file.empty()) return;
  std::string error;
  if (!aoc::base::publish_text(opt.state_file, to_json(r).dump(2) + "\n", &error))
    throw std::runtime_error("cannot write the fuzz state " + opt.state_file.string() + ": " + error);
}

FuzzReport load_or_start(const aoc::eval::Candidate& cand, const FuzzOptions& opt) {
  FuzzReport r;
  r.op = cand.package.name;
  r.seed = opt.seed;
  if (opt.state_file.empty() || !std::filesystem::exists(opt.state_file)) return r;
  FuzzReport old;
  try {
    std::ifstream in(opt.state_file);
    old = fuzz_report_from_json(nlohmann::json::parse(in));
  } catch (const std::exception& e) {
    throw std::runtime_error("the fuzz state " + opt.state_file.string() + " is unreadable (" + e.what() +
                             "); remove it or choose another --out");
  }
  if (old.op != r.op || old.seed != r.seed)
    throw std::runtime_error("the fuzz state " + opt.state_file.string() + " belongs to " + old.op + " with seed " +
                             std::to_string(old.seed) + "; pass that seed to resume it, or choose another --out");
  old.resumed = true;
  return old;
}

}  // namespace

std::string failure_signature(const std::string& verdict, const std::string& message) {
  static const std::regex numbers("0x[0-9a-fA-F]+|[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?");
  std::string s = verdict + ": " + std::regex_replace(message, numbers, "#");
  return s.size() > 160 ? s.substr(0, 160) : s;
}

FuzzReport fuzz(const aoc::eval::Candidate& cand, aoc::build::Builder& builder, const FuzzOptions& opt,
                const FuzzProgress& progress) {
  const aoc::package::OpPackage& p = cand.package;
  if (p.inputs.empty()) throw std::runtime_error(p.name + " has no inputs: there is nothing to draw");
  FuzzReport rep = load_or_start(cand, opt);
  const double seconds_before = rep.seconds;
  std::set<std::string> known;
  for (const auto& f : rep.findings) known.insert(f.signature);
  Runner runner(cand, builder, opt);
  while ((opt.rounds <= 0 || rep.rounds < opt.rounds) && !runner.out_of_time()) {
    aoc::package::HiddenDraw draw;
    draw.seed = aoc::base::mix_seed(opt.seed, static_cast<uint64_t>(rep.rounds), kDrawStream);
    draw.count = opt.batch;
    draw.max_elements = opt.max_elements;
    std::vector<CaseSpec> cases = aoc::package::generate_hidden_cases(p, draw);
    for (size_t i = 0; i < cases.size(); ++i)
      cases[i].name = "fuzz_r" + std::to_string(rep.rounds) + "_" + std::to_string(i);
    if (progress) progress("round " + std::to_string(rep.rounds + 1) + ": " + std::to_string(cases.size()) + " cases");
    const std::vector<CaseResult> results = runner.run(cases);
    rep.cases_run += static_cast<int64_t>(results.size());
    for (size_t i = 0; i < results.size(); ++i) {
      if (results[i].verdict == Verdict::Ok) continue;
      ++rep.failing_cases;
      const std::string sig = failure_signature(aoc::eval::to_string(results[i].verdict), results[i].message);
      if (!known.insert(sig).second) continue;
      if (progress) progress("  new failure on " + shape_text(first_shape(p, cases[i])) + ": " + results[i].message);
      rep.findings.push_back(shrink(runner, p, opt, cases[i], results[i], progress));
    }
    ++rep.rounds;
    rep.seconds = seconds_before + runner.elapsed();
    save(opt, rep);
  }
  rep.seconds = seconds_before + runner.elapsed();
  save(opt, rep);
  return rep;
}

nlohmann::json to_json(const FuzzReport& r) {
  nlohmann::json j = {{"op", r.op},           {"seed", r.seed},     {"rounds", r.rounds},
                      {"cases_run", r.cases_run}, {"failing_cases", r.failing_cases},
                      {"resumed", r.resumed}, {"seconds", r.seconds}};
  j["findings"] = nlohmann::json::array();
  for (const auto& f : r.findings)
    j["findings"].push_back({{"signature", f.signature},
                             {"verdict", f.verdict},
                             {"message", f.message},
                             {"first_shape", f.first_shape},
                             {"minimal_shape", f.minimal_shape},
                             {"shrink_runs", f.shrink_runs},
                             {"reproduced", f.reproduced},
                             {"case_toml", f.case_toml}});
  return j;
}

FuzzReport fuzz_report_from_json(const nlohmann::json& j) {
  FuzzReport r;
  r.op = j.at("op").get<std::string>();
  r.seed = j.at("seed").get<uint64_t>();
  r.rounds = j.at("rounds").get<int64_t>();
  r.cases_run = j.at("cases_run").get<int64_t>();
  r.failing_cases = j.at("failing_cases").get<int64_t>();
  r.seconds = j.value("seconds", 0.0);
  for (const auto& f : j.at("findings")) {
    Finding x;
    x.signature = f.at("signature").get<std::string>();
    x.verdict = f.at("verdict").get<std::string>();
    x.message = f.at("message").get<std::string>();
    x.first_shape = f.at("first_shape").get<std::string>();
    x.minimal_shape = f.at("minimal_shape").get<std::string>();
    x.shrink_runs = f.at("shrink_runs").get<int64_t>();
    x.reproduced = f.at("reproduced").get<bool>();
    x.case_toml = f.at("case_toml").get<std::string>();
    r.findings.push_back(std::move(x));
  }
  return r;
}

}  // namespace aoc::fuzz
