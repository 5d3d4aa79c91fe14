#include "cli/rewrite_target.h"

#include "build/builder.h"
#include "build/header_hash.h"

namespace aoc::cli {

std::string header_hash() { return aoc::build::ascendc_header_hash(aoc::build::default_builder_options().root); }

std::optional<aoc::eval::Candidate> load_rewrite_target(const std::string& dir, std::string& error) {
  namespace fs = std::filesystem;
  if (!fs::is_directory(dir)) {
    error = dir + " is not a folder; give an operator package (ops/<category>/<name>), its expert/ folder or a candidate";
    return std::nullopt;
  }
  try {
    return aoc::eval::load_candidate(dir, header_hash());
  } catch (const std::exception& e) {
    error = e.what();
    return std::nullopt;
  }
}

}  // namespace aoc::cli
