#include "rewrite/pin_config.h"

#include "rewrite/rewrite_tool.h"

namespace aoc::rewrite {

PinOutcome pin_configuration(const aoc::eval::Candidate& c, const aoc::build::SourceDirs& sources,
                             const aoc::eval::TuningConfig& config, bool coupled) {
  if (config.empty()) return {true, "the default configuration: nothing to write"};
  nlohmann::json j = aoc::eval::to_json(config);
  j["coupled"] = coupled;
  try {
    const ToolAnswer a = run_rewrite_tool(c, sources, "pin-config", "", true, {"--config", j.dump()});
    if (a.exit_code != 0) return {false, a.body.value("refused", std::string("the rewriter refused"))};
  } catch (const RewriteError& e) {
    return {false, e.what()};
  }
  std::string what;
  if (config.cores) what += "core count capped at " + std::to_string(config.cores) + ", ";
  if (config.ub_bytes) what += "UB budget capped at " + std::to_string(config.ub_bytes) + " B, ";
  for (const auto& [k, v] : config.knobs) what += "knob " + k + " defaults to " + std::to_string(v) + ", ";
  what.resize(what.size() - 2);
  return {true, what};
}

}  // namespace aoc::rewrite
