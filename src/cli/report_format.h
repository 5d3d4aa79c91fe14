// Rendering evaluation reports: an aligned table for terminals, JSON for scripts.
#pragma once
#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

#include "eval/evaluator.h"

namespace aoc::cli {

void print_report_table(std::ostream& os, const aoc::eval::OpReport& r);
// Per case with a simulated time: Task Duration, per-core time (min/avg/max over the
// blocks), per-pipe time and ratio under msprof field names, the bound pipe, and T_HW.
void print_profile_table(std::ostream& os, const aoc::eval::OpReport& r);
// The same numbers as JSON (null when the case was not simulated).
nlohmann::json case_profile_json(const aoc::op::CaseOutcome& c);
nlohmann::json report_to_json(const aoc::eval::OpReport& r);

}  // namespace aoc::cli
