#include "optimize/llm_proposer.h"

#include <fstream>
#include <iomanip>
#include <iterator>
#include <sstream>

#include "base/file_text.h"
#include "base/rng.h"
#include "llm/bank_experience.h"
#include "llm/proposal_record.h"
#include "llm/source_diff.h"

namespace aoc::optimize {
namespace fs = std::filesystem;
using aoc::llm::ProposalMode;

namespace {

std::string fixed(double v, int digits) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(digits) << v;
  return os.str();
}

// OpenEvolve's inspirations, shown as experience entries: what made each, its diff, its time.
std::vector<aoc::llm::ExperienceEntry> inspirations_of(const search::ProposalContext& ctx) {
  std::vector<aoc::llm::ExperienceEntry> out;
  for (const search::Scored* s : ctx.inspirations) {
    if (s == nullptr || !s->eval.valid) continue;
    aoc::llm::ExperienceEntry e;
    e.title = "Evaluated variant #" + std::to_string(s->index) + ": " + s->origin;
    e.description = "Another program of this search (tiling configuration " + search::config_text(s->variant.config) +
                    "); the diff is the last kernel change that led to it.";
    e.diff = s->variant.kernel->diff;
    e.effect = fixed(s->eval.time_us, 3) + " us geomean, against " + fixed(ctx.parent.eval.time_us, 3) +
               " us for the kernel to change";
    if (e.diff.empty()) e.diff = "(same kernel sources as the original; tiling configuration " +
                                 search::config_text(s->variant.config) + ")";
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace

LlmKernelProposer::LlmKernelProposer(aoc::llm::LlmProposer& llm, const search::Evaluator& ev, fs::path kernels_dir,
                                     std::string header_hash, uint64_t seed)
    : llm_(llm), ev_(ev), dir_(std::move(kernels_dir)), header_hash_(std::move(header_hash)), seed_(seed) {}

std::optional<aoc::llm::AttemptFailure> LlmKernelProposer::previous_failure() const {
  std::optional<aoc::llm::AttemptFailure> f;
  if (last_unusable_) {
    f = last_unusable_;
  } else if (!last_key_.empty()) {
    const search::ScoredPtr s = ev_.known(last_key_);
    if (!s || s->eval.valid || !s->report) return std::nullopt;
    f = aoc::llm::failure_from_report(*s->report);
  } else {
    return std::nullopt;
  }
  f->answer_excerpt = last_answer_;
  return f;
}

std::vector<aoc::llm::ExperienceEntry> LlmKernelProposer::bank_experiences(const search::Scored& parent) {
  if (!bank_ || bank_failed_) return {};
  try {
    return aoc::llm::top_experiences(bank_(parent), kBankExperiences);
  } catch (const std::exception& e) {
    bank_failed_ = true;
    notes_.push_back(std::string("the experience bank cannot be read for the LLM prompts (") + e.what() +
                     "); guided prompts go on without its entries");
    return {};
  }
}

std::optional<search::Proposal> LlmKernelProposer::propose(const search::ProposalContext& ctx) {
  if (!available()) return std::nullopt;
  const search::KernelPtr& k = ctx.parent.variant.kernel;
  const std::string mode = aoc::llm::to_string(mode_);
  const size_t n = ++attempts_[mode + "-" + k->cand.hash];
  const std::string tag = "llm-" + mode + "-" + k->cand.hash.substr(0, 12) + "-" + std::to_string(n);
  const fs::path dir = dir_ / tag;
  if (fs::exists(dir / "proposal.json")) return load(ctx, dir, tag);
  return ask(ctx, dir, tag);
}

search::Proposal LlmKernelProposer::unusable(const search::ProposalContext& ctx, const std::string& tag, const std::string& request_key,
                                     const std::string& code, const std::string& message) {
  ++counts_.unusable;
  last_key_.clear();
  last_unusable_ = aoc::llm::failure_from_unusable({code, message});
  search::Proposal p;
  p.variant = ctx.parent.variant;
  p.origin = tag + ": answer not applied";
  p.failure = code + ": " + message;
  p.failure_key = "llm-answer:" + request_key;
  p.failure_verdict = aoc::llm::to_string(aoc::llm::Proposal::Status::Unusable);
  return p;
}

search::Proposal LlmKernelProposer::applied(const search::ProposalContext& ctx, const fs::path& dir, const std::string& tag) {
  ++counts_.applied;
  const search::KernelPtr& parent = ctx.parent.variant.kernel;
  auto made = std::make_shared<search::Kernel>();
  made->cand = aoc::eval::load_candidate(dir / "candidate", header_hash_);
  made->motifs = parent->motifs;
  made->motifs.push_back("llm");
  if (fs::exists(dir / "kernel.diff")) {
    made->diff = base::read_text(dir / "kernel.diff");
  } else {
    made->diff = aoc::llm::source_diff(parent->cand, made->cand);
    std::ofstream(dir / "kernel.diff", std::ios::binary) << made->diff;
  }
  search::Proposal p;
  p.variant = search::Variant{made, ctx.parent.variant.config};
  p.origin = tag;
  last_key_ = p.variant.key();
  last_unusable_.reset();
  return p;
}

std::optional<search::Proposal> LlmKernelProposer::load(const search::ProposalContext& ctx, const fs::path& dir, const std::string& tag) {
  try {
    const aoc::llm::Proposal rec = aoc::llm::read_proposal_record(dir);
    ++counts_.loaded;
    last_answer_ = rec.answer.content;
    if (rec.status == aoc::llm::Proposal::Status::Applied) return applied(ctx, dir, tag);
    return unusable(ctx, tag, rec.answer.key, rec.unusable.code, rec.unusable.message);
  } catch (const std::exception& e) {
    notes_.push_back("the LLM attempt in " + dir.string() + " cannot be loaded (" + e.what() +
                     "); remove the folder to ask again");
    return std::nullopt;
  }
}

std::optional<search::Proposal> LlmKernelProposer::ask(const search::ProposalContext& ctx, const fs::path& dir, const std::string& tag) {
  aoc::llm::ProposalRequest req;
  req.mode = mode_;
  req.parent = &ctx.parent.variant.kernel->cand;
  req.parent_report = ctx.parent.report.get();
  if (mode_ == ProposalMode::Guided) {
    req.experiences = bank_experiences(ctx.parent);
    for (auto& e : inspirations_of(ctx)) req.experiences.push_back(std::move(e));
    req.previous_failure = previous_failure();
  }
  const std::string& hash = ctx.parent.variant.kernel->cand.hash;
  req.seed = aoc::base::mix_seed(aoc::base::mix_seed(seed_, std::stoull(hash.substr(0, 15), nullptr, 16)),
                               static_cast<uint64_t>(mode_), attempts_[std::string(aoc::llm::to_string(mode_)) + "-" + hash]);
  req.out_dir = dir / "candidate";
  std::error_code ec;
  fs::remove_all(dir, ec);  // the remains of an attempt killed before its record was written
  ++counts_.asked;
  aoc::llm::Proposal answer;
  try {
    fs::create_directories(dir);
    answer = llm_.propose(req);
    if (answer.status == aoc::llm::Proposal::Status::EndpointError) {
      ++counts_.endpoint_errors;
      fs::remove_all(dir, ec);
      notes_.push_back(tag + ": no answer from the endpoint (" + answer.unusable.code + "): " +
                       llm_.client().redact(answer.unusable.message));
      if (++endpoint_failures_ == kMaxEndpointFailures)
        notes_.push_back("the endpoint failed " + std::to_string(kMaxEndpointFailures) +
                         " times in a row; no more LLM proposals in this run");
      return std::nullopt;
    }
    endpoint_failures_ = 0;
    aoc::llm::write_proposal_record(answer, llm_.client(), dir);
  } catch (const aoc::llm::LlmError&) {
    fs::remove_all(dir, ec);
    throw;
  } catch (const std::exception& e) {  // sources that cannot be read, a folder that cannot be written
    fs::remove_all(dir, ec);
    notes_.push_back(tag + ": " + llm_.client().redact(e.what()));
    return std::nullopt;
  }
  last_answer_ = answer.answer.content;
  if (answer.status == aoc::llm::Proposal::Status::Applied) {
    try {
      return applied(ctx, dir, tag);
    } catch (const std::exception& e) {
      notes_.push_back(tag + ": the applied answer is not a candidate folder: " + llm_.client().redact(e.what()));
      return std::nullopt;
    }
  }
  return unusable(ctx, tag, answer.answer.key, answer.unusable.code, answer.unusable.message);
}

}  // namespace aoc::optimize
