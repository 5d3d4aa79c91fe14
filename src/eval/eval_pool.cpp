#include "eval/eval_pool.h"

#include <atomic>
#include <mutex>
#include <thread>

#include "build/header_hash.h"

namespace aoc::eval {
namespace fs = std::filesystem;

std::optional<CandidateReport> recall_report(ResultStore& store, const ResultKey& key) {
  const std::optional<std::string> stored = store.find(key);
  if (!stored) return std::nullopt;
  try {
    return report_from_json(nlohmann::json::parse(*stored));
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

size_t default_jobs() { return std::max(1u, std::thread::hardware_concurrency()); }

namespace {

CandidateReport evaluate_or_recall(const fs::path& dir, const std::string& header_hash, build::Builder& builder,
                                   const CandidateEvalOptions& opt, ResultStore* store) {
  Candidate cand;
  try {
    cand = load_candidate(dir, header_hash);
  } catch (const std::exception& e) {
    CandidateReport r;
    r.candidate_dir = dir.string();
    r.seed = opt.seed;
    r.soc = opt.soc;
    r.case_set = opt.case_set;
    r.verdict = Verdict::Error;
    r.message = e.what();
    return r;
  }
  // What the result depends on beyond the candidate: the case set with its hidden draw, and a
  // tuning configuration when one is given.
  std::string set_key = opt.case_set;
  if (opt.case_set != "public")
    set_key += ":" + std::to_string(opt.hidden.seed) + ":" + std::to_string(opt.hidden.count) + ":" +
               std::to_string(opt.hidden.max_elements);
  if (!opt.config.empty()) set_key += ":" + to_json(opt.config).dump();
  const ResultKey key{cand.hash, cand.package.name, set_key, opt.seed, opt.soc};
  if (store != nullptr && opt.only_cases.empty()) {
    if (auto r = recall_report(*store, key)) {
      r->candidate_dir = dir.string();
      r->from_store = true;
      return *r;
    }
  }
  CandidateReport r = evaluate_candidate(cand, builder, opt);
  // Evaluator failures (Error) are not results of the candidate: they are retried.
  if (store != nullptr && opt.only_cases.empty() && r.verdict != Verdict::Error)
    store->put(key, to_string(r.verdict), to_json(r).dump());
  return r;
}

}  // namespace

std::vector<CandidateReport> evaluate_candidates(const std::vector<fs::path>& candidates, build::Builder& builder,
                                                 const CandidateEvalOptions& opt, const PoolOptions& pool) {
  const std::string header_hash = build::ascendc_header_hash(builder.options().root);
  std::vector<CandidateReport> out(candidates.size());
  std::atomic<size_t> next{0};
  size_t done = 0;
  std::mutex mu;
  auto worker = [&]() {
    for (size_t i = next++; i < candidates.size(); i = next++) {
      out[i] = evaluate_or_recall(candidates[i], header_hash, builder, opt, pool.store);
      std::lock_guard lock(mu);
      ++done;
      if (pool.on_done) pool.on_done(done, candidates.size(), out[i]);
    }
  };
  const size_t jobs = std::min(pool.jobs == 0 ? default_jobs() : pool.jobs, std::max<size_t>(1, candidates.size()));
  std::vector<std::thread> threads;
  for (size_t j = 1; j < jobs; ++j) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  return out;
}

}  // namespace aoc::eval
