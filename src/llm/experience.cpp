#include "llm/experience.h"

#include <stdexcept>

namespace aoc::llm {

nlohmann::json to_json(const ExperienceEntry& e) {
  return {{"title", e.title},
          {"description", e.description},
          {"bottleneck", e.bottleneck},
          {"diff", e.diff},
          {"effect", e.effect}};
}

std::vector<ExperienceEntry> experiences_from_json(const nlohmann::json& j) {
  if (!j.is_array())
    throw std::invalid_argument("experience entries must be a JSON array of objects with title, description, "
                                "bottleneck, diff and effect");
  std::vector<ExperienceEntry> out;
  for (size_t i = 0; i < j.size(); ++i) {
    const auto& o = j[i];
    const std::string at = "experience entry " + std::to_string(i);
    if (!o.is_object()) throw std::invalid_argument(at + " is not an object");
    ExperienceEntry e;
    for (const auto& [key, value] : o.items()) {
      std::string* field = key == "title"         ? &e.title
                           : key == "description" ? &e.description
                           : key == "bottleneck"  ? &e.bottleneck
                           : key == "diff"        ? &e.diff
                           : key == "effect"      ? &e.effect
                                                  : nullptr;
      if (field == nullptr) continue;  // other tools' extra fields are kept out of prompts
      if (!value.is_string()) throw std::invalid_argument(at + ": field '" + key + "' must be a string");
      *field = value.get<std::string>();
    }
    if (e.title.empty()) throw std::invalid_argument(at + ": field 'title' is missing or empty");
    if (e.diff.empty() && e.description.empty())
      throw std::invalid_argument(at + " (" + e.title + "): needs a 'diff' or a 'description'");
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace aoc::llm
