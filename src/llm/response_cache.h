// Chat answers kept on disk by request, so a run can be replayed exactly without the
// endpoint and a benchmark's answers stay with its results. One JSON file per request,
// <dir>/<key[0:2]>/<key>.json, holding the request itself and the answer; the key is
// the XXH3-128 of the canonical JSON of the request (model, messages, sampling
// parameters, seed). Written atomically (temporary file, then rename), so concurrent
// runs sharing the folder never see half an entry.
#pragma once
#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace aoc::llm {

class ResponseCache {
 public:
  explicit ResponseCache(std::filesystem::path dir) : dir_(std::move(dir)) {}

  // Canonical JSON text (keys sorted, no spaces) and its key.
  static std::string canonical(const nlohmann::json& request);
  static std::string key_of(const nlohmann::json& request);

  // The recorded answer, or nullopt. An entry that exists but cannot be read, or whose
  // stored request differs from `request`, is reported in `problem` and treated as absent.
  std::optional<nlohmann::json> find(const nlohmann::json& request, std::string* problem = nullptr) const;
  // Throws LlmError(Cache) when the folder cannot be written.
  void put(const nlohmann::json& request, const nlohmann::json& answer) const;

  std::filesystem::path entry_path(const std::string& key) const;
  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::filesystem::path dir_;
};

}  // namespace aoc::llm
