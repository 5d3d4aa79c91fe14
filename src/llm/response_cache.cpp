#include "llm/response_cache.h"

#include <fstream>
#include <sstream>

#include "base/content_hash.h"
#include "base/published_file.h"
#include "llm/llm_error.h"

namespace aoc::llm {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {
constexpr int kFormat = 1;
}

std::string ResponseCache::canonical(const json& request) { return request.dump(); }

std::string ResponseCache::key_of(const json& request) {
  aoc::base::ContentHash h;
  h.add("ascendopt-llm-request-v1");
  h.add(canonical(request));
  return h.hex();
}

fs::path ResponseCache::entry_path(const std::string& key) const { return dir_ / key.substr(0, 2) / (key + ".json"); }

std::optional<json> ResponseCache::find(const json& request, std::string* problem) const {
  const fs::path p = entry_path(key_of(request));
  std::error_code ec;
  if (!fs::is_regular_file(p, ec)) return std::nullopt;
  auto fail = [&](const std::string& why) -> std::optional<json> {
    if (problem != nullptr) *problem = "cache entry " + p.string() + " " + why;
    return std::nullopt;
  };
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  if (!in && !in.eof()) return fail("cannot be read");
  json j = json::parse(ss.str(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) return fail("is not JSON");
  if (j.value("format", 0) != kFormat) return fail("has an unknown format (written by another version)");
  if (!j.contains("request") || !j.contains("answer") || !j["answer"].is_object()) return fail("is incomplete");
  if (canonical(j["request"]) != canonical(request)) return fail("holds a different request (hash collision)");
  return j["answer"];
}

void ResponseCache::put(const json& request, const json& answer) const {
  const std::string key = key_of(request);
  const fs::path p = entry_path(key);
  std::error_code ec;
  fs::create_directories(p.parent_path(), ec);
  if (ec)
    throw LlmError(ErrorKind::Cache, "cannot create the LLM cache folder " + p.parent_path().string() + ": " +
                                         ec.message() + " (set cache_dir in the --llm-config file or --cache-dir)");
  const json entry = {{"format", kFormat}, {"key", key}, {"request", request}, {"answer", answer}};
  if (std::string error; !base::publish_text(p, entry.dump(1) + "\n", &error))
    throw LlmError(ErrorKind::Cache, "cannot write the LLM cache entry " + p.string() + ": " + error);
}

}  // namespace aoc::llm
