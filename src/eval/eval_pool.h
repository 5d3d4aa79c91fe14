// Evaluates many candidates on a pool of worker threads (each drives its own sandboxed
// children), consulting and filling the result store so finished work is never redone.
#pragma once
#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <vector>

#include "eval/candidate_eval.h"
#include "eval/result_store.h"

namespace aoc::eval {

struct PoolOptions {
  size_t jobs = 0;                 // 0: one per hardware thread
  ResultStore* store = nullptr;    // optional
  // Called (serialised) after each candidate: done count, total, its report.
  std::function<void(size_t, size_t, const CandidateReport&)> on_done;
};

// Reports in the order of `candidates`. Folders that are not candidates get an Error report.
std::vector<CandidateReport> evaluate_candidates(const std::vector<std::filesystem::path>& candidates,
                                                 build::Builder& builder, const CandidateEvalOptions& opt,
                                                 const PoolOptions& pool);

size_t default_jobs();

// The report stored under `key`, or nothing when none is stored or the stored one cannot be read
// back (written by another version): the caller then evaluates again and the new report
// replaces it.
std::optional<CandidateReport> recall_report(ResultStore& store, const ResultKey& key);

}  // namespace aoc::eval
