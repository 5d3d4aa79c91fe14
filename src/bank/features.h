// The context of a kernel as the bank compares it (entry.h Context) and its per-pipe profile,
// read from an evaluation report: dtypes of the cases, size class of the largest case, the
// busiest pipe, cores used and the vector/MTE2 time ratio.
#pragma once
#include <map>
#include <string>

#include "bank/entry.h"
#include "eval/candidate_eval.h"

namespace aoc::bank {

Context context_of(const aoc::eval::CandidateReport& r);
// Mean over the simulated cases of each pipe's time (the *_time profile fields, us).
std::map<std::string, double> mean_pipe_times(const aoc::eval::CandidateReport& r);
// The pipe with the largest mean time ("" without simulated cases).
std::string busiest_pipe(const std::map<std::string, double>& pipe_times);
// small (< 16 Ki elements), medium (< 1 Mi) or large, from the first input's shape.
std::string shape_class(int64_t elements);

}  // namespace aoc::bank
