// `ascendopt llm-check`: test LLM settings against the endpoint. `ascendopt llm-propose
// OP_DIR`: evaluate a package (or candidate), ask the model for a changed kernel in the
// chosen mode, apply the answer into a new candidate folder, evaluate it, and retry with
// the failure in the prompt when it is not ok (docs/llm.md).
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/harness_check.h"
#include "cli/llm_flags.h"
#include "cli/rewrite_target.h"
#include "eval/candidate.h"
#include "eval/eval_pool.h"
#include "eval/seed.h"
#include "llm/chat_client.h"
#include "llm/feedback_loop.h"
#include "llm/proposer.h"

namespace aoc::cli {

namespace {
namespace fs = std::filesystem;
using nlohmann::json;

std::string fmt(double v, int digits) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(digits) << v;
  return os.str();
}

// --------------------------------------------------------------------------- llm-check

struct CheckArgs {
  LlmFlags llm;
  std::string cache_dir;
  bool json = false;
};

int run_check(const CheckArgs& a) {
  const fs::path cache_root = a.cache_dir.empty() ? aoc::build::default_builder_options().cache_dir : fs::path(a.cache_dir);
  json out;
  try {
    aoc::llm::LlmOptions o = resolve_llm_options(a.llm, cache_root);
    if (!o.replay) o.cache = false;  // a check asks the endpoint itself
    aoc::llm::ChatClient client(o, aoc::llm::ApiKey::from_environment(o.api_key_env));
    out["settings"] = aoc::llm::to_json(o);
    out["endpoint"] = aoc::llm::display_url(client.endpoint());
    aoc::llm::ChatRequest r;
    r.messages = {{"system", "You answer in as few words as possible."},
                  {"user", "Reply with the single word: ready"}};
    r.seed = o.seed;
    const aoc::llm::ChatAnswer ans = client.complete(r);
    out["ok"] = true;
    out["answer"] = ans.content.substr(0, 200);
    out["finish_reason"] = ans.finish_reason;
    out["model"] = ans.model;
    out["from_cache"] = ans.from_cache;
    out["seconds"] = ans.seconds;
    out["usage"] = client.totals().to_json();
    if (a.json) {
      std::cout << out.dump(2) << "\n";
    } else {
      std::cout << "endpoint " << out["endpoint"].get<std::string>() << ", model " << o.model
                << (o.api_key_env.empty() ? ", no API key" : ", key from $" + o.api_key_env) << "\n"
                << "answer (" << (ans.from_cache ? "from the cache" : fmt(ans.seconds, 2) + " s") << ", finish "
                << ans.finish_reason << ", served by " << (ans.model.empty() ? "?" : ans.model) << "): "
                << out["answer"].get<std::string>() << "\n"
                << client.totals().summary_line() << "\nthe LLM settings work\n";
    }
    return 0;
  } catch (const aoc::llm::LlmError& e) {
    if (a.json) {
      out["ok"] = false;
      out["error_kind"] = aoc::llm::to_string(e.kind());
      out["error"] = e.what();
      std::cout << out.dump(2) << "\n";
    } else {
      std::cerr << "error: " << e.what() << "\n";
    }
    return e.kind() == aoc::llm::ErrorKind::Config ? 2 : 1;
  }
}

// ------------------------------------------------------------------------- llm-propose

struct ProposeArgs {
  std::string op_dir;
  LlmFlags llm;
  std::string mode = "guided";
  std::string remove;
  std::string experience;
  int attempts = 3;
  std::string out;
  bool json = false;
  std::string seed;
  std::vector<std::string> cases;
  std::string soc = "Ascend910B1";
  double timeout = aoc::base::kDefaultCaseSeconds;
  std::string cache_dir;
  std::string store;
  bool no_store = false;
};

std::string report_line(const aoc::eval::CandidateReport& r) {
  std::string s = aoc::eval::to_string(r.verdict);
  if (!r.message.empty()) s += ": " + aoc::llm::scrub_paths(r.message);
  return s;
}

// Everything llm-propose sets up before asking: usage errors come back as a message.
struct ProposeSetup {
  aoc::eval::CandidateEvalOptions eval;
  std::unique_ptr<aoc::build::Builder> builder;
  std::unique_ptr<aoc::eval::ResultStore> store;
  aoc::eval::Candidate parent;
  aoc::llm::LlmOptions llm;
  aoc::llm::ProposalMode mode = aoc::llm::ProposalMode::Guided;
  std::vector<aoc::llm::ExperienceEntry> experiences;
  fs::path out;
};

std::string setup_propose(const ProposeArgs& a, ProposeSetup& s) {
  const auto mode = aoc::llm::parse_mode(a.mode);
  if (!mode) return "--mode " + a.mode + " is not a mode; use guided, sample or rewind";
  s.mode = *mode;
  if (!a.remove.empty() && s.mode != aoc::llm::ProposalMode::Rewind) return "--remove applies to --mode rewind";
  if (!a.experience.empty() && s.mode != aoc::llm::ProposalMode::Guided)
    return "--experience applies to --mode guided (sampling and rewind prompts carry no experience)";
  if (a.attempts < 1 || a.attempts > 20) return "--attempts must be between 1 and 20";
  s.eval = aoc::eval::default_candidate_eval_options();
  s.eval.soc = a.soc;
  s.eval.only_cases = a.cases;
  aoc::base::set_case_time_limit(s.eval.limits, a.timeout);
  try {
    s.eval.seed = a.seed.empty() ? aoc::eval::fresh_seed() : std::stoull(a.seed, nullptr, 0);
  } catch (const std::exception&) {
    return "--seed " + a.seed + " is not a number (decimal or 0x-hex)";
  }
  if (std::string missing = harness_missing(s.eval.harness); !missing.empty()) return missing;
  aoc::build::BuilderOptions bo = aoc::build::default_builder_options();
  if (!a.cache_dir.empty()) bo.cache_dir = a.cache_dir;
  try {
    s.llm = resolve_llm_options(a.llm, bo.cache_dir);
    s.parent = aoc::eval::load_candidate(a.op_dir, header_hash());
    if (!a.experience.empty()) {
      std::ifstream in(a.experience);
      if (!in) return "cannot read --experience " + a.experience;
      const json j = json::parse(in, nullptr, false);
      if (j.is_discarded()) return a.experience + " is not JSON; --experience takes a JSON array of entries";
      s.experiences = aoc::llm::experiences_from_json(j);
    }
    if (!a.no_store)
      s.store = std::make_unique<aoc::eval::ResultStore>(a.store.empty() ? bo.cache_dir / "eval-results.sqlite"
                                                                         : fs::path(a.store));
  } catch (const std::exception& e) {
    return e.what();
  }
  s.builder = std::make_unique<aoc::build::Builder>(bo);
  std::ostringstream def;
  def << s.parent.package.name << "-llm-" << std::hex << s.eval.seed;
  s.out = a.out.empty() ? fs::path(def.str()) : fs::path(a.out);
  std::error_code ec;
  if (fs::exists(s.out, ec) && !(fs::is_directory(s.out, ec) && fs::is_empty(s.out, ec)))
    return s.out.string() + " already exists; pass --out with a new folder";
  return "";
}

int run_propose(const ProposeArgs& a) {
  ProposeSetup s;
  if (std::string err = setup_propose(a, s); !err.empty()) {
    std::cerr << "error: " << err << "\n";
    return 2;
  }
  std::unique_ptr<aoc::llm::ChatClient> client;
  try {
    client = std::make_unique<aoc::llm::ChatClient>(s.llm, aoc::llm::ApiKey::from_environment(s.llm.api_key_env));
  } catch (const aoc::llm::LlmError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  }
  const bool progress = ::isatty(STDERR_FILENO) != 0;
  aoc::eval::PoolOptions pool;
  pool.jobs = 1;
  pool.store = s.store.get();
  auto evaluate = [&](const fs::path& dir) {
    if (progress) std::cerr << "\r\033[Kevaluating " << dir.string() << std::flush;
    auto r = aoc::eval::evaluate_candidates({dir}, *s.builder, s.eval, pool).at(0);
    if (progress) std::cerr << "\r\033[K" << std::flush;
    return r;
  };
  if (!a.json)
    std::cout << "seed 0x" << std::hex << s.eval.seed << std::dec << " (pass --seed and --llm-replay to replay this "
              << "run from the response cache)\n";
  const aoc::eval::CandidateReport base = evaluate(s.parent.dir);
  json out = {{"op", s.parent.package.name},
              {"mode", aoc::llm::to_string(s.mode)},
              {"seed", s.eval.seed},
              {"out", s.out.string()},
              {"llm", aoc::llm::to_json(s.llm)},
              {"baseline", {{"verdict", aoc::eval::to_string(base.verdict)}, {"message", base.message}}}};
  const auto base_profile = aoc::llm::profile_from_report(base);
  if (base_profile) out["baseline"]["geomean_us"] = base_profile->geomean_task_us;
  if (!a.json) {
    std::cout << "baseline " << s.parent.package.name << ": " << report_line(base);
    if (base_profile) {
      std::cout << ", geomean " << fmt(base_profile->geomean_task_us, 3) << " us over " << base_profile->cases.size()
                << " case(s)";
      if (base_profile->geomean_ratio_to_t_hw) std::cout << ", " << fmt(*base_profile->geomean_ratio_to_t_hw, 2) << "x T_HW";
    }
    std::cout << "\n";
  }
  if (base.verdict != aoc::eval::Verdict::Ok) {
    std::cerr << "error: " << a.op_dir << " is not correct as it is (" << report_line(base)
              << "); llm-propose starts from a kernel that passes its cases\n";
    return 1;
  }

  aoc::llm::LlmProposer proposer(*client);
  aoc::llm::ProposalRequest req;
  req.mode = s.mode;
  req.parent = &s.parent;
  req.parent_report = &base;
  req.experiences = s.experiences;
  req.rewind_target = a.remove;
  req.seed = s.eval.seed;
  aoc::llm::FeedbackOptions fo;
  fo.max_attempts = a.attempts;
  fo.out_root = s.out;
  std::vector<aoc::llm::AttemptOutcome> attempts;
  json jattempts = json::array();
  auto on_attempt = [&](const aoc::llm::AttemptOutcome& at) {
    json j = at.to_json();
    j.erase("answer");
    if (at.report) {
      if (auto sp = aoc::llm::speedup(base, *at.report); sp && at.ok()) j["speedup"] = *sp;
    }
    jattempts.push_back(j);
    if (a.json) return;
    std::cout << "attempt " << at.index << ": ";
    using St = aoc::llm::Proposal::Status;
    const auto& p = at.proposal;
    const std::string via = p.answer.from_cache ? "answer from the cache" : "answer from the endpoint";
    if (p.status == St::EndpointError) {
      std::cout << "no answer: " << p.unusable.message << "\n";
      return;
    }
    if (p.status == St::Unusable) {
      std::cout << "answer not applied (" << p.unusable.code << "): " << p.unusable.message << "  [" << via << "]\n";
      return;
    }
    std::cout << report_line(*at.report);
    if (j.contains("speedup")) std::cout << ", speedup " << fmt(j["speedup"].get<double>(), 3) << "x";
    std::cout << "  [" << via << "; changed";
    for (const auto& f : p.changed_files) std::cout << " " << f;
    if (!p.removed.empty()) std::cout << "; removed: " << p.removed;
    std::cout << "]\n    candidate " << p.candidate_dir.string() << "\n";
  };
  try {
    attempts = aoc::llm::propose_with_feedback(proposer, req, evaluate, fo, on_attempt);
  } catch (const aoc::llm::LlmError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return e.kind() == aoc::llm::ErrorKind::Config ? 2 : 1;
  } catch (const std::exception& e) {
    std::cerr << "error: " << client->redact(e.what()) << "\n";
    return 1;
  }
  const bool ok = !attempts.empty() && attempts.back().ok();
  out["attempts"] = jattempts;
  out["ok"] = ok;
  out["evaluations"] = 1;  // the baseline
  for (const auto& at : attempts) out["evaluations"] = out["evaluations"].get<int>() + at.evaluations();
  if (ok) {
    out["best"] = {{"candidate", attempts.back().proposal.candidate_dir.string()}};
    if (auto sp = aoc::llm::speedup(base, *attempts.back().report)) out["best"]["speedup"] = *sp;
  }
  out["usage"] = client->totals().to_json();
  const std::string text = client->redact(out.dump(2)) + "\n";
  std::ofstream(s.out / "summary.json") << text;
  if (a.json) {
    std::cout << text;
  } else {
    std::cout << client->totals().summary_line() << "\n";
    std::cout << (ok ? "a correct candidate in " + attempts.back().proposal.candidate_dir.string()
                     : "no correct candidate in " + std::to_string(attempts.size()) + " attempt(s)")
              << "; records in " << s.out.string() << "\n";
  }
  return ok ? 0 : 1;
}

}  // namespace

void add_llm_commands(CLI::App& app) {
  {
    auto args = std::make_shared<CheckArgs>();
    CLI::App* cmd = app.add_subcommand("llm-check", "Test the LLM settings: one short request to the endpoint, "
                                                    "with latency, tokens and cost (see docs/llm.md)");
    add_llm_flags(cmd, args->llm);
    cmd->add_option("--cache-dir", args->cache_dir, "Cache folder (default: <build>/cache or $AOC_CACHE_DIR)");
    cmd->add_flag("--json", args->json, "Print a JSON report");
    cmd->callback([args]() { exit_status() = run_check(*args); });
  }
  auto args = std::make_shared<ProposeArgs>();
  CLI::App* cmd = app.add_subcommand(
      "llm-propose", "Ask the model for a faster kernel (or, in rewind mode, one with an optimization removed), apply "
                     "its answer to a copy, evaluate it, and retry with the failure in the prompt (docs/llm.md)");
  cmd->add_option("OP_DIR", args->op_dir, "Operator package, its expert/ folder, or a candidate folder")
      ->required()
      ->check(CLI::ExistingDirectory);
  add_llm_flags(cmd, args->llm);
  cmd->add_option("--mode", args->mode, "guided (experience as guidance), sample (no guidance) or rewind")
      ->capture_default_str();
  cmd->add_option("--remove", args->remove, "Rewind: the optimization to remove (default: the model chooses)");
  cmd->add_option("--experience", args->experience,
                  "Guided: JSON array of experience entries (title, description, bottleneck, diff, effect)");
  cmd->add_option("--attempts", args->attempts, "Attempts, each retried with the previous failure in the prompt")
      ->capture_default_str();
  cmd->add_option("--out", args->out, "Folder for the attempts (default: <op>-llm-<seed> here)");
  cmd->add_flag("--json", args->json, "Print a JSON report");
  cmd->add_option("--seed", args->seed, "Input seed of the evaluations, also the base of the request seeds "
                                        "(default: fresh; printed)");
  cmd->add_option("--case", args->cases, "Evaluate only the named case(s)");
  cmd->add_option("--soc", args->soc, "SoC model for timing")->capture_default_str();
  add_case_timeout_option(cmd, args->timeout);
  cmd->add_option("--cache-dir", args->cache_dir, "Build and LLM cache folder (default: <build>/cache or "
                                                  "$AOC_CACHE_DIR)");
  cmd->add_option("--store", args->store, "SQLite result store (default: <cache dir>/eval-results.sqlite)");
  cmd->add_flag("--no-store", args->no_store, "Neither read nor write the result store");
  cmd->callback([args]() { exit_status() = run_propose(*args); });
}

}  // namespace aoc::cli
