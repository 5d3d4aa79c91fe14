// `ascendopt bank query OP_DIR [--json] [-k K]`: the bank's entries ranked for one kernel,
// each with the score terms that put it there (docs/bank.md).
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "bank/store.h"
#include "bank/target.h"
#include "cli/bank_cli.h"
#include "cli/commands.h"
#include "cli/rewrite_target.h"
#include "eval/eval_pool.h"
#include "llm/bank_experience.h"
#include "rewrite/motif_states.h"

namespace aoc::cli {
namespace {

struct QueryArgs {
  std::string dir;
  std::string bank;
  size_t k = 5;
  bool json = false;
  bool no_profile = false;
  bool experience = false;
  BankEvalFlags eval;
};

int run(const QueryArgs& a) {
  std::string error;
  auto c = load_rewrite_target(a.dir, error);
  if (!c) {
    std::cerr << "error: " << error << "\n";
    return 2;
  }
  aoc::bank::Bank bank(bank_path(a.bank));
  std::vector<aoc::rewrite::MotifState> states;
  try {
    states = aoc::rewrite::detect_motifs(*c);
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  std::optional<aoc::eval::CandidateReport> report;
  if (!a.no_profile) {
    auto setup = make_bank_eval_setup(a.eval, error);
    if (!setup) {
      std::cerr << "error: " << error << " (or pass --no-profile)\n";
      return 2;
    }
    aoc::build::Builder builder(setup->builder);
    aoc::eval::PoolOptions pool;
    pool.jobs = 1;
    pool.store = a.eval.cases.empty() ? setup->store.get() : nullptr;
    report = aoc::eval::evaluate_candidates({c->dir}, builder, setup->eval, pool).at(0);
    if (report->verdict != aoc::eval::Verdict::Ok)
      std::cerr << "note: the target is " << aoc::eval::to_string(report->verdict)
                << "; ranking with what its cases showed\n";
  }
  const auto target = aoc::bank::make_target(*c, states, report ? &*report : nullptr);
  const auto ranked =
      aoc::bank::rank_entries(bank.entries(), target, [&](const std::string& m) { return bank.stats(m); });
  if (a.experience) {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& e : aoc::llm::top_experiences(ranked, a.k)) j.push_back(aoc::llm::to_json(e));
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  if (a.json) {
    nlohmann::json list = nlohmann::json::array();
    for (size_t i = 0; i < ranked.size() && i < a.k; ++i) list.push_back(aoc::bank::to_json(ranked[i]));
    std::cout << nlohmann::json{{"op", target.op},
                                {"dir", a.dir},
                                {"bank", bank.file()},
                                {"context", aoc::bank::to_json(target.context)},
                                {"profiled", target.profiled},
                                {"states", target.states},
                                {"ranking", list}}
                     .dump(2)
              << "\n";
    return 0;
  }
  std::cout << target.op << " (" << a.dir << "): bound "
            << (target.context.bound.empty() ? "unknown" : target.context.bound) << ", applicable motifs:";
  size_t n = 0;
  for (const auto& [m, st] : target.states)
    if (st == aoc::rewrite::State::Applicable) std::cout << " " << m, ++n;
  std::cout << (n ? "" : " none") << "\n";
  print_ranking(std::cout, ranked, a.k);
  return 0;
}

}  // namespace

void add_bank_query_command(CLI::App& bank) {
  auto args = std::make_shared<QueryArgs>();
  CLI::App* cmd = bank.add_subcommand("query", "Rank the bank's entries for a kernel: applicability, similarity, "
                                               "measured effect, adoption; prints why each ranks where it does");
  cmd->add_option("OP_DIR", args->dir, "Operator package, its expert/ folder, or a candidate folder")->required();
  cmd->add_option("--bank", args->bank, "Experience bank file (default: <cache dir>/experience-bank.sqlite)");
  cmd->add_option("-k", args->k, "Entries shown")->capture_default_str();
  cmd->add_flag("--json", args->json, "Print JSON");
  cmd->add_flag("--experience", args->experience,
                "Print the first -k entries as the JSON array `llm-propose --mode guided --experience FILE` reads");
  cmd->add_flag("--no-profile", args->no_profile,
                "Do not evaluate the target: compare on package facts only (no bound pipe, no ratios)");
  cmd->add_option("--seed", args->eval.seed, "Input seed of the target's evaluation")->capture_default_str();
  cmd->add_option("--soc", args->eval.soc, "SoC model")->capture_default_str();
  cmd->add_option("--case", args->eval.cases, "Profile the target on these public cases only");
  cmd->add_option("--store", args->eval.store, "Result store (default: <cache dir>/eval-results.sqlite)");
  cmd->add_flag("--no-store", args->eval.no_store, "Neither read nor write the result store");
  cmd->callback([args]() {
    try {
      exit_status() = run(*args);
    } catch (const aoc::bank::BankError& e) {
      std::cerr << "error: " << e.what() << "\n";
      exit_status() = 1;
    }
  });
}

}  // namespace aoc::cli
