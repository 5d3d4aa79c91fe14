#include "eval/judge.h"

#include <cstring>
#include <optional>
#include <stdexcept>

#include "eval/contained.h"
#include "package/golden.h"

namespace aoc::eval {

namespace {

using aoc::package::GoldenLibrary;

// Golden results travel from the contained child as flat binary: per trial a status byte,
// the error text, then each output as a count and its doubles (hundreds of megabytes on a
// large case, where a text or CBOR encoding would cost more than the golden).
void put_u64(std::string& out, uint64_t v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); }

std::string encode(const TrialReferences& trials) {
  std::string out;
  put_u64(out, trials.size());
  for (const auto& t : trials) {
    out.push_back(t.ok ? 1 : 0);
    put_u64(out, t.error.size());
    out += t.error;
    put_u64(out, t.outputs.size());
    for (const auto& o : t.outputs) {
      put_u64(out, o.size());
      out.append(reinterpret_cast<const char*>(o.data()), o.size() * sizeof(double));
    }
  }
  return out;
}

// Throws std::runtime_error on a malformed answer.
TrialReferences decode(const std::string& in) {
  size_t at = 0;
  auto take = [&](void* to, size_t n) {
    if (n > in.size() - at) throw std::runtime_error("truncated golden answer");
    std::memcpy(to, in.data() + at, n);
    at += n;
  };
  auto u64 = [&]() {
    uint64_t v = 0;
    take(&v, sizeof v);
    return v;
  };
  TrialReferences trials(u64());
  for (auto& t : trials) {
    char ok = 0;
    take(&ok, 1);
    t.ok = ok != 0;
    t.error.resize(u64());
    take(t.error.data(), t.error.size());
    t.outputs.resize(u64());
    for (auto& o : t.outputs) {
      const uint64_t n = u64();
      if (n > (in.size() - at) / sizeof(double)) throw std::runtime_error("truncated golden answer");
      o.resize(n);
      take(o.data(), n * sizeof(double));
    }
  }
  if (at != in.size()) throw std::runtime_error("trailing bytes in the golden answer");
  return trials;
}

// `golden` on each of `inputs` in a contained child.
ReferenceRun run_golden(const std::string& what, const aoc::package::OpPackage& p, const aoc::package::CaseSpec& c,
                        const std::filesystem::path& golden, const std::vector<std::vector<int64_t>>& shapes,
                        const std::vector<const std::vector<aoc::package::CaseTensor>*>& inputs, double wall_seconds) {
  const ContainedResult r = run_contained(
      what,
      [&]() {
        const GoldenLibrary lib = GoldenLibrary::open(golden);
        TrialReferences out;
        for (const auto* in : inputs) out.push_back(lib.run(p, c, GoldenLibrary::Inputs(*in), shapes));
        return encode(out);
      },
      wall_seconds);
  ReferenceRun run;
  if (!r.ok) {
    run.message = r.error + "; fix golden.cpp of the package";
    return run;
  }
  try {
    run.trials = decode(r.answer);
  } catch (const std::exception& e) {
    run.message = std::string("unreadable answer from ") + what + ": " + e.what();
    return run;
  }
  if (run.trials.size() != inputs.size()) {
    run.message = "unreadable answer from " + what + ": wrong number of trials";
    return run;
  }
  run.ok = true;
  return run;
}

}  // namespace

ReferenceRun reference_outputs(const aoc::package::OpPackage& p, const aoc::package::CaseSpec& c, const GoldenFiles& golden,
                               const std::vector<std::vector<int64_t>>& output_shapes,
                               const std::vector<const std::vector<aoc::package::CaseTensor>*>& trial_inputs,
                               double wall_seconds) {
  ReferenceRun run = run_golden("the golden of " + p.name, p, c, golden.reference, output_shapes, trial_inputs, wall_seconds);
  // Rounded to the output dtypes once here, not per element of every candidate's comparison.
  for (auto& trial : run.trials)
    for (size_t o = 0; o < trial.outputs.size() && o < p.outputs.size(); ++o)
      aoc::package::round_reference(p.outputs[o].dtypes.at(c.variant), trial.outputs[o]);
  return run;
}

Judgement judge_case(const aoc::package::OpPackage& p, const aoc::package::CaseSpec& c, const GoldenFiles& golden,
                     const std::vector<std::vector<int64_t>>& shapes, const std::vector<TrialData>& trials,
                     const TrialReferences& ref, double wall_seconds) {
  Judgement j;
  if (ref.size() < trials.size()) {
    j.message = "evaluator: references for " + std::to_string(ref.size()) + " trials, " +
                std::to_string(trials.size()) + " trials run";
    return j;
  }
  for (size_t t = 0; t < trials.size(); ++t) {
    if (!ref[t].ok) {
      j.verdict = Verdict::Error;
      j.message = "golden: " + ref[t].error;
      return j;
    }
    if (ref[t].outputs.size() != trials[t].outputs.size()) {
      j.message = "golden: it returned " + std::to_string(ref[t].outputs.size()) + " outputs for " +
                  std::to_string(trials[t].outputs.size());
      return j;
    }
    // The same golden built in float, loaded only when an output needs the fallback screen.
    std::optional<GoldenLibrary::Result> cpu;
    std::string cpu_failure;
    auto cpu_outputs = [&]() -> const std::vector<std::vector<double>>* {
      if (!cpu) {
        ReferenceRun r = run_golden("the float golden of " + p.name, p, c, golden.same_precision, shapes,
                                    {trials[t].inputs()}, wall_seconds);
        if (r.ok) cpu = std::move(r.trials.front());
        else {
          cpu_failure = r.message;
          cpu = GoldenLibrary::Result{};
        }
      }
      return cpu->ok ? &cpu->outputs : nullptr;
    };
    const auto checks = aoc::package::compare_outputs(trials[t].outputs, ref[t].outputs, p.tolerance, aoc::package::kPoisonByte,
                                                 cpu_outputs, /*golden_rounded=*/true);
    if (!cpu_failure.empty()) {
      j.verdict = Verdict::Error;
      j.message = cpu_failure;
      j.outputs.clear();
      return j;
    }
    for (size_t o = 0; o < checks.size(); ++o) {
      aoc::package::OutputCheck chk{p.outputs[o].name, shapes[o], checks[o]};
      if (t == 0) j.outputs.push_back(chk);
      if (chk.cmp.pass) continue;
      const std::string where = "output " + chk.name + ": " + chk.cmp.reason + " (worst at " +
                                aoc::package::index_to_string(chk.cmp.worst_index, chk.shape) + ")";
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

}  // namespace aoc::eval
