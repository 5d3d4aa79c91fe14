#include "rewrite/state.h"

#include <nlohmann/json.hpp>

namespace aoc::rewrite {

const char* to_string(State s) {
  switch (s) {
    case State::Present: return "present";
    case State::Applicable: return "applicable";
    case State::NotApplicable: return "not_applicable";
  }
  return "?";
}

std::optional<State> parse_state(std::string_view word) {
  for (State s : {State::Present, State::Applicable, State::NotApplicable})
    if (word == to_string(s)) return s;
  return std::nullopt;
}

void to_json(nlohmann::json& j, State s) { j = to_string(s); }

}  // namespace aoc::rewrite
