#include "motif.h"

namespace aoc::rewrite {

const char* state_name(State s) {
  switch (s) {
    case State::Present: return "present";
    case State::Applicable: return "applicable";
    case State::NotApplicable: return "not_applicable";
  }
  return "?";
}

}  // namespace aoc::rewrite
