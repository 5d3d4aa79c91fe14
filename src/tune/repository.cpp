#include "tune/repository.h"

#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "base/published_file.h"

namespace aoc::tune {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

json load(const fs::path& f) {
  std::ifstream in(f);
  if (!in) return json::object();
  try {
    json j = json::parse(in);
    return j.is_object() ? j : json::object();
  } catch (const json::exception&) {
    return json::object();  // a damaged file is replaced on the next store
  }
}

}  // namespace

std::optional<RepoEntry> Repository::lookup(const RepoKey& k) const {
  const json j = load(file_);
  const auto entries = j.value("entries", json::object());
  if (!entries.contains(k.text())) return std::nullopt;
  try {
    const json& e = entries.at(k.text());
    RepoEntry r;
    r.config = eval::tuning_config_from_json(e.at("config"));
    r.time_us = e.at("time_us").get<double>();
    r.baseline_us = e.at("baseline_us").get<double>();
    r.candidate_hash = e.at("candidate_hash").get<std::string>();
    r.method = e.at("method").get<std::string>();
    r.evaluations = e.at("evaluations").get<size_t>();
    return r;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

bool Repository::store(const RepoKey& k, const RepoEntry& e) {
  if (auto old = lookup(k); old && old->candidate_hash == e.candidate_hash && old->time_us <= e.time_us) return false;
  json j = load(file_);
  j["entries"][k.text()] = {{"op", k.op},
                            {"shape_class", k.shape_class},
                            {"dtype", k.dtype},
                            {"soc", k.soc},
                            {"config", eval::to_json(e.config)},
                            {"time_us", e.time_us},
                            {"baseline_us", e.baseline_us},
                            {"candidate_hash", e.candidate_hash},
                            {"method", e.method},
                            {"evaluations", e.evaluations}};
  // Published whole, so a reader never sees half a file.
  if (std::string error; !base::publish_text(file_, j.dump(2) + "\n", &error))
    throw std::runtime_error("cannot update the tuning repository " + file_.string() + ": " + error);
  return true;
}

}  // namespace aoc::tune
