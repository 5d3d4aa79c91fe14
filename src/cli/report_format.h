// Rendering `ascendopt run` reports (one isolated evaluation per operator or candidate):
// an aligned table for terminals, JSON for scripts.
#pragma once
#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

#include "eval/candidate_eval.h"

namespace aoc::cli {

// Per case: dtype, shapes, verdict, worst relative error and where, blocks, simulated time,
// and the message of a case that is not ok.
void print_report_table(std::ostream& os, const aoc::eval::CandidateReport& r);
// Per case with a simulated time: Task Duration, per-core time (min/avg/max over the
// blocks), per-pipe time and ratio under msprof field names, the bound pipe, and T_HW.
void print_profile_table(std::ostream& os, const aoc::eval::CandidateReport& r);
// The same numbers as JSON (null when the case was not simulated).
nlohmann::json case_profile_json(const aoc::eval::CaseResult& c);
nlohmann::json report_to_json(const aoc::eval::CandidateReport& r);

}  // namespace aoc::cli
