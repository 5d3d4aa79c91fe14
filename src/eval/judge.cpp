#include "eval/judge.h"

#include <optional>

#include <nlohmann/json.hpp>

#include "eval/contained.h"
#include "ops/golden.h"

namespace aoc::eval {

namespace {
using nlohmann::json;

// The child's answer travels as CBOR, which keeps NaN and infinities (worst values often are).
json to_wire(const aoc::op::OutputCheck& o) {
  const aoc::op::CompareResult& c = o.cmp;
  return {{"name", o.name},
          {"shape", o.shape},
          {"cmp",
           {c.pass, c.max_rel, c.mean_rel, c.worst_index, c.worst_actual, c.worst_expected, c.nan_mismatch,
            c.inf_mismatch, c.poisoned, c.compared, c.tau, c.fallback_used, c.small_errors, c.small_cpu_errors,
            c.cancel_errors, c.cancel_cpu_errors, c.relaxed, c.reason}}};
}

aoc::op::OutputCheck from_wire(const json& j) {
  aoc::op::OutputCheck o;
  o.name = j.at("name");
  o.shape = j.at("shape").get<std::vector<int64_t>>();
  const json& a = j.at("cmp");
  aoc::op::CompareResult& c = o.cmp;
  size_t i = 0;
  auto next = [&]() -> const json& { return a.at(i++); };
  c.pass = next();
  c.max_rel = next();
  c.mean_rel = next();
  c.worst_index = next();
  c.worst_actual = next();
  c.worst_expected = next();
  c.nan_mismatch = next();
  c.inf_mismatch = next();
  c.poisoned = next();
  c.compared = next();
  c.tau = next();
  c.fallback_used = next();
  c.small_errors = next();
  c.small_cpu_errors = next();
  c.cancel_errors = next();
  c.cancel_cpu_errors = next();
  c.relaxed = next();
  c.reason = next();
  return o;
}

// Runs in the contained child: everything package-supplied happens here.
Judgement judge_here(const aoc::op::OpPackage& p, const aoc::op::CaseSpec& c, const GoldenFiles& golden,
                     const std::vector<std::vector<int64_t>>& shapes, const std::vector<TrialData>& trials) {
  using aoc::op::GoldenLibrary;
  Judgement j;
  const GoldenLibrary reference = GoldenLibrary::open(golden.reference);
  std::optional<GoldenLibrary> same_precision;  // loaded only when an output needs the fallback screen
  std::vector<GoldenLibrary::Result> ref(trials.size());
  for (size_t t = 0; t < trials.size(); ++t) {
    const GoldenLibrary::Inputs in(trials[t].inputs);
    ref[t] = reference.run(p, c, in, shapes);
    if (!ref[t].ok) {
      j.verdict = Verdict::Error;
      j.message = "golden: " + ref[t].error;
      return j;
    }
    std::optional<GoldenLibrary::Result> cpu;
    auto cpu_outputs = [&]() -> const std::vector<std::vector<double>>* {
      if (!cpu) {
        if (!same_precision) same_precision.emplace(GoldenLibrary::open(golden.same_precision));
        cpu = same_precision->run(p, c, in, shapes);
      }
      return cpu->ok ? &cpu->outputs : nullptr;
    };
    const auto checks = aoc::op::compare_outputs(trials[t].outputs, ref[t].outputs, p.tolerance, aoc::op::kPoisonByte,
                                                 cpu_outputs);
    for (size_t o = 0; o < checks.size(); ++o) {
      aoc::op::OutputCheck chk{p.outputs[o].name, shapes[o], checks[o]};
      if (t == 0) j.outputs.push_back(chk);
      if (chk.cmp.pass) continue;
      const std::string where = "output " + chk.name + ": " + chk.cmp.reason + " (worst at " +
                                aoc::op::index_to_string(chk.cmp.worst_index, chk.shape) + ")";
      if (t == 0) {
        j.verdict = Verdict::WrongResult;
        j.message = where;
        return j;
      }
      if (trials[t].outputs[o].bytes == trials[0].outputs[o].bytes && ref[t].outputs[o] != ref[0].outputs[o]) {
        j.verdict = Verdict::Suspicious;
        j.message = "output " + chk.name + " does not depend on the inputs: the second trial with perturbed inputs "
                    "returned the first trial's values while the reference changed (cached or replayed output?)";
        return j;
      }
      j.verdict = Verdict::WrongResult;
      j.message = "second trial (perturbed inputs): " + where;
      return j;
    }
  }
  j.verdict = Verdict::Ok;
  return j;
}

}  // namespace

Judgement judge_case(const aoc::op::OpPackage& p, const aoc::op::CaseSpec& c, const GoldenFiles& golden,
                     const std::vector<std::vector<int64_t>>& output_shapes, const std::vector<TrialData>& trials,
                     double wall_seconds) {
  const ContainedResult r = run_contained(
      "the golden of " + p.name,
      [&]() {
        const Judgement j = judge_here(p, c, golden, output_shapes, trials);
        json w = {{"verdict", to_string(j.verdict)}, {"message", j.message}, {"outputs", json::array()}};
        for (const auto& o : j.outputs) w["outputs"].push_back(to_wire(o));
        const std::vector<uint8_t> bytes = json::to_cbor(w);
        return std::string(bytes.begin(), bytes.end());
      },
      wall_seconds);
  Judgement j;
  if (!r.ok) {
    j.message = r.error + "; fix golden.cpp of the package";
    return j;
  }
  try {
    const json w = json::from_cbor(r.answer);
    j.verdict = parse_verdict(w.at("verdict").get<std::string>()).value_or(Verdict::Error);
    j.message = w.at("message");
    for (const auto& o : w.at("outputs")) j.outputs.push_back(from_wire(o));
  } catch (const std::exception& e) {
    j.verdict = Verdict::Error;
    j.message = std::string("unreadable answer from the golden's process: ") + e.what();
  }
  return j;
}

}  // namespace aoc::eval
