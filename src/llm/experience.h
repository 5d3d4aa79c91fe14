// An experience entry as a prompt shows it: the shape of the public AscendC experience
// banks (title, description, bottleneck, diff) plus the measured effect. The experience
// bank fills these from its mined entries; users can pass hand-written ones as JSON.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace aoc::llm {

struct ExperienceEntry {
  std::string title;        // "Double-buffer the input queues"
  std::string description;  // what the optimization does and when it pays
  std::string bottleneck;   // the profile it addresses: "MTE2-bound, vector idle between tiles"
  std::string diff;         // unified diff of the optimization on its source kernel
  std::string effect;       // measured: "1.38x geomean over 6 cases of add (fp16, fp32)"
};

nlohmann::json to_json(const ExperienceEntry& e);
// An array of objects with those fields (title and diff or description required; the
// rest optional). Throws std::invalid_argument naming the entry index and the field.
std::vector<ExperienceEntry> experiences_from_json(const nlohmann::json& j);

}  // namespace aoc::llm
