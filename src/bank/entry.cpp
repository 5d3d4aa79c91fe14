#include "bank/entry.h"

#include <cmath>

namespace aoc::bank {

nlohmann::json to_json(const Context& c) {
  nlohmann::json j = {{"dtypes", c.dtypes}, {"shape_class", c.shape_class}, {"bound", c.bound}, {"cores", c.cores}};
  j["ub_bytes"] = c.ub_bytes ? nlohmann::json(*c.ub_bytes) : nlohmann::json(nullptr);
  j["vec_mte2_ratio"] = c.vec_mte2_ratio ? nlohmann::json(*c.vec_mte2_ratio) : nlohmann::json(nullptr);
  return j;
}

nlohmann::json to_json(const ProfileDelta& p) {
  return {{"before", p.before}, {"after", p.after}, {"bound_before", p.bound_before}, {"bound_after", p.bound_after}};
}

nlohmann::json to_json(const Entry& e) {
  nlohmann::json cases = nlohmann::json::array();
  for (const auto& c : e.cases)
    cases.push_back({{"name", c.name}, {"optimized_us", c.optimized_us}, {"rewound_us", c.rewound_us},
                     {"speedup", c.speedup()}});
  nlohmann::json j = {{"id", e.id},
                      {"kind", e.kind},
                      {"motif", e.motif},
                      {"op", e.op},
                      {"category", e.category},
                      {"source", {{"path", e.source_path}, {"hash", e.source_hash}}},
                      {"title", e.title},
                      {"description", e.description},
                      {"bottleneck", e.bottleneck},
                      {"diff", e.diff},
                      {"cases", cases},
                      {"geomean", e.geomean ? nlohmann::json(*e.geomean) : nlohmann::json(nullptr)},
                      {"profile", to_json(e.profile)},
                      {"context", to_json(e.context)},
                      {"provenance", e.provenance},
                      {"created", e.created}};
  return j;
}

Context context_from_json(const nlohmann::json& j) {
  Context c;
  if (!j.is_object()) return c;
  if (j.contains("dtypes") && j["dtypes"].is_array())
    for (const auto& d : j["dtypes"])
      if (d.is_string()) c.dtypes.push_back(d.get<std::string>());
  if (j.contains("shape_class") && j["shape_class"].is_string()) c.shape_class = j["shape_class"];
  if (j.contains("bound") && j["bound"].is_string()) c.bound = j["bound"];
  if (j.contains("cores") && j["cores"].is_number()) c.cores = j["cores"].get<uint32_t>();
  if (j.contains("ub_bytes") && j["ub_bytes"].is_number()) c.ub_bytes = j["ub_bytes"].get<double>();
  if (j.contains("vec_mte2_ratio") && j["vec_mte2_ratio"].is_number())
    c.vec_mte2_ratio = j["vec_mte2_ratio"].get<double>();
  return c;
}

ProfileDelta profile_from_json(const nlohmann::json& j) {
  ProfileDelta p;
  if (!j.is_object()) return p;
  auto times = [](const nlohmann::json& m) {
    std::map<std::string, double> out;
    if (m.is_object())
      for (auto it = m.begin(); it != m.end(); ++it)
        if (it.value().is_number()) out[it.key()] = it.value().get<double>();
    return out;
  };
  if (j.contains("before")) p.before = times(j["before"]);
  if (j.contains("after")) p.after = times(j["after"]);
  if (j.contains("bound_before") && j["bound_before"].is_string()) p.bound_before = j["bound_before"];
  if (j.contains("bound_after") && j["bound_after"].is_string()) p.bound_after = j["bound_after"];
  return p;
}

double geomean_speedup(const std::vector<CaseEffect>& cases) {
  double log_sum = 0;
  size_t n = 0;
  for (const auto& c : cases)
    if (c.optimized_us > 0 && c.rewound_us > 0) {
      log_sum += std::log(c.speedup());
      ++n;
    }
  return n ? std::exp(log_sum / double(n)) : 0;
}

}  // namespace aoc::bank
