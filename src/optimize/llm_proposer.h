// Kernel proposals by a language model (src/llm/proposer.h) behind the optimizer's Proposer
// interface. One propose() asks the model once about the parent's kernel and keeps the
// parent's tiling configuration:
//   guided  the parent's sources and simulated profile, the failure of this proposer's own
//           previous attempt (compile diagnostics, wrong-result statistics, or why its answer
//           could not be applied), and the inspirations of the method as experience entries;
//   sample  the parent's sources and profile only (Best-of-N: independent samples).
// An applied answer is a new variant to evaluate. An answer that cannot be applied is still a
// Proposal, with `failure` set: evaluate_proposal (search/methods.h) charges it one evaluation and
// records it as failed with the reason. An endpoint that gives no answer (connection,
// timeout, HTTP error after the client's retries) costs nothing and proposes nothing; after
// kMaxEndpointFailures of them in a row the proposer stops asking for the rest of the run.
// With an experience bank (use_bank, `optimize --bank`), guided prompts also show the bank's
// top kBankExperiences entries for the parent kernel (title, bottleneck, measured effect,
// description, the diff that adds the optimization), before OpenEvolve's inspirations.
// Every attempt is a folder under `kernels_dir`, llm-<mode>-<parent hash>-<n> (n counts the
// attempts of that mode on that kernel): prompt.md, answer.md, proposal.json and, when applied,
// candidate/. A folder already there (a resumed run) is loaded instead of asking again.
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bank/ranking.h"
#include "llm/proposer.h"
#include "search/evaluator.h"
#include "search/kernel_proposers.h"

namespace aoc::optimize {

class LlmKernelProposer : public search::ModelSource {
 public:
  LlmKernelProposer(aoc::llm::LlmProposer& llm, const search::Evaluator& ev, std::filesystem::path kernels_dir,
                    std::string header_hash, uint64_t seed);
  std::string name() const override { return "llm"; }
  // In the current mode (guided unless set_mode says otherwise). Throws aoc::llm::LlmError for
  // what asking again cannot fix: settings, a replay without a recorded answer, the cache.
  std::optional<search::Proposal> propose(const search::ProposalContext& ctx) override;
  void set_mode(Mode m) override {
    mode_ = m == Mode::Sample ? aoc::llm::ProposalMode::Sample : aoc::llm::ProposalMode::Guided;
  }
  // `rank`: the bank's entries ranked for a parent, best first (BankMotifChooser::rank).
  using BankRanking = std::function<std::vector<aoc::bank::Ranked>(const search::Scored& parent)>;
  void use_bank(BankRanking rank) { bank_ = std::move(rank); }
  static constexpr size_t kBankExperiences = 3;

  // False once the endpoint failed kMaxEndpointFailures times in a row.
  bool available() const override { return endpoint_failures_ < kMaxEndpointFailures; }
  static constexpr int kMaxEndpointFailures = 3;

  struct Counts {
    size_t asked = 0, loaded = 0, applied = 0, unusable = 0, endpoint_errors = 0;
  };
  const Counts& counts() const { return counts_; }
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  std::optional<search::Proposal> ask(const search::ProposalContext& ctx, const std::filesystem::path& dir, const std::string& tag);
  std::optional<search::Proposal> load(const search::ProposalContext& ctx, const std::filesystem::path& dir, const std::string& tag);
  search::Proposal applied(const search::ProposalContext& ctx, const std::filesystem::path& dir, const std::string& tag);
  search::Proposal unusable(const search::ProposalContext& ctx, const std::string& tag, const std::string& request_key,
                    const std::string& code, const std::string& message);
  std::optional<aoc::llm::AttemptFailure> previous_failure() const;
  std::vector<aoc::llm::ExperienceEntry> bank_experiences(const search::Scored& parent);

  aoc::llm::LlmProposer& llm_;
  const search::Evaluator& ev_;
  std::filesystem::path dir_;
  std::string header_hash_;
  uint64_t seed_;
  aoc::llm::ProposalMode mode_ = aoc::llm::ProposalMode::Guided;
  std::map<std::string, size_t> attempts_;  // by "<mode>-<kernel hash>"
  // This proposer's last attempt: the variant it made (to look its evaluation up), or why its
  // answer could not be applied; and the answer itself.
  std::string last_key_;
  std::optional<aoc::llm::AttemptFailure> last_unusable_;
  std::string last_answer_;
  int endpoint_failures_ = 0;
  Counts counts_;
  std::vector<std::string> notes_;
  BankRanking bank_;
  bool bank_failed_ = false;  // noted once; guided prompts go on without the bank
};

}  // namespace aoc::optimize
