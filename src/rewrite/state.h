// A motif's state in a kernel, as the rewriter's detectors report it. The words are those of
// aoc-rewrite's answers, `ascendopt motifs --json` and the bank's targets; code compares the enum.
#pragma once
#include <optional>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace aoc::rewrite {

enum class State {
  Present,        // the kernel carries the motif
  Applicable,     // it could carry it
  NotApplicable,  // neither
};

// "present", "applicable", "not_applicable".
const char* to_string(State s);
// The state a word names; nothing for any other word.
std::optional<State> parse_state(std::string_view word);

// A state is written as its word (nlohmann::json finds this by argument-dependent lookup).
void to_json(nlohmann::json& j, State s);

}  // namespace aoc::rewrite
