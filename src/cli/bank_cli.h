// What `ascendopt bank query`, `rewind` and `rewrite --guided` share: the evaluation setup
// (harness, temp folder, build cache, result store, with errors phrased for the command line),
// the bank file option and the printed ranking.
#pragma once
#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "bank/ranking.h"
#include "build/builder.h"
#include "eval/candidate_eval.h"
#include "eval/result_store.h"

namespace aoc::cli {

struct BankEvalSetup {
  aoc::eval::CandidateEvalOptions eval;
  aoc::build::BuilderOptions builder;
  std::unique_ptr<aoc::eval::ResultStore> store;
};

struct BankEvalFlags {
  uint64_t seed = 1;
  std::string soc = "Ascend910B1";
  std::vector<std::string> cases;  // empty: every public case
  double timeout = 60;
  std::string store;
  bool no_store = false;
};

// Sets `error` and returns nullopt when the harness or temp folder is missing or the store
// cannot be opened.
std::optional<BankEvalSetup> make_bank_eval_setup(const BankEvalFlags& f, std::string& error);

// --bank FILE or the default bank path.
std::filesystem::path bank_path(const std::string& flag);

// The first `k` ranked entries, each with its score and the terms that made it.
void print_ranking(std::ostream& os, const std::vector<aoc::bank::Ranked>& ranked, size_t k);

}  // namespace aoc::cli
