// Which motifs an operator's kernel carries (present), could carry (applicable) or neither,
// with the source places and the reason: `ascendopt motifs`.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "eval/candidate.h"
#include "rewrite/state.h"

namespace aoc::rewrite {

struct SourcePlace {
  std::string file;  // relative to the candidate folder when inside it
  unsigned line = 0;
};

struct MotifState {
  std::string motif;
  std::string summary;
  State state = State::NotApplicable;
  std::string reason;
  std::vector<SourcePlace> places;
};

// Throws RewriteError.
std::vector<MotifState> detect_motifs(const aoc::eval::Candidate& c, const std::string& only_motif = "");

nlohmann::json to_json(const std::vector<MotifState>& states);

}  // namespace aoc::rewrite
