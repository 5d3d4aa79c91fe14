// Rendering evaluation reports: an aligned table for terminals, JSON for scripts.
#pragma once
#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

#include "eval/evaluator.h"

namespace aoc::cli {

void print_report_table(std::ostream& os, const aoc::eval::OpReport& r);
nlohmann::json report_to_json(const aoc::eval::OpReport& r);

}  // namespace aoc::cli
