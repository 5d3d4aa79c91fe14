#include "rewrite/answer_cache.h"

#include <fstream>
#include <map>
#include <mutex>

#include "base/content_hash.h"
#include "base/published_file.h"
#include "build/object_cache.h"
#include "build/program_identity.h"

namespace aoc::rewrite {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string tree_identity(const fs::path& dir) {
  static std::mutex mu;
  static std::map<std::string, std::string> known;
  std::lock_guard lock(mu);
  auto [it, fresh] = known.try_emplace(dir.string());
  if (fresh) it->second = fs::is_directory(dir) ? aoc::base::tree_hash(dir) : "none";
  return it->second;
}

// Every string in `j` passed through `f`, object keys included.
json map_strings(const json& j, const auto& f) {
  if (j.is_string()) return f(j.get<std::string>());
  if (j.is_array()) {
    json out = json::array();
    for (const auto& e : j) out.push_back(map_strings(e, f));
    return out;
  }
  if (j.is_object()) {
    json out = json::object();
    for (auto it = j.begin(); it != j.end(); ++it) out[f(it.key())] = map_strings(it.value(), f);
    return out;
  }
  return j;
}

}  // namespace

AnswerCache::AnswerCache(fs::path dir, std::vector<fs::path> roots) : dir_(std::move(dir)) {
  for (size_t i = 0; i < roots.size(); ++i) {
    const std::string placeholder = "@rewrite-root" + std::to_string(i);
    std::error_code ec;
    const fs::path real = fs::weakly_canonical(roots[i], ec);
    spelled_.push_back(roots[i].string());
    placeholders_.push_back(placeholder);
    real_.push_back(ec ? roots[i].string() : real.string());
  }
}

std::string AnswerCache::relocate(const std::string& text) const {
  // A root is named as the caller spelled it in the arguments and by its real path in answers.
  std::vector<std::string> from = spelled_, to = placeholders_;
  from.insert(from.end(), real_.begin(), real_.end());
  to.insert(to.end(), placeholders_.begin(), placeholders_.end());
  return aoc::build::substitute_folders(text, from, to);
}

std::string AnswerCache::restore(const std::string& text) const {
  return aoc::build::substitute_folders(text, placeholders_, real_);
}

std::string AnswerCache::key(const fs::path& tool, const std::vector<std::string>& argv, const fs::path& headers) const {
  aoc::base::ContentHash h;
  h.add("aoc-rewrite-answer-v1").add(aoc::build::executable_identity_once(tool)).add(tree_identity(headers));
  for (size_t i = 1; i < argv.size(); ++i) h.add(relocate(argv[i]));  // argv[0] is the tool's path
  for (const auto& r : spelled_) h.add(fs::is_directory(r) ? aoc::base::tree_hash(r) : "none");
  return h.hex();
}

std::optional<CachedAnswer> AnswerCache::find(const std::string& key) const {
  std::ifstream in(dir_ / key.substr(0, 2) / (key + ".json"), std::ios::binary);
  if (!in) return std::nullopt;
  const json j = json::parse(in, nullptr, false);
  try {
    if (j.is_discarded() || j.at("version") != 1) return std::nullopt;
    CachedAnswer a;
    a.exit_code = j.at("exit_code").get<int>();
    a.body = map_strings(j.at("body"), [&](const std::string& s) { return restore(s); });
    if (!a.body.is_object()) return std::nullopt;
    for (const auto& [file, text] : j.at("written").items()) {
      // Only files inside the requester's folders are ever written.
      if (file.rfind("@rewrite-root", 0) != 0) return std::nullopt;
      a.written.emplace_back(restore(file), text.get<std::string>());
    }
    return a;
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

void AnswerCache::store(const std::string& key, const CachedAnswer& a) const {
  json written = json::object();
  for (const auto& [file, text] : a.written) {
    const std::string relocated = relocate(file);
    if (relocated.rfind("@rewrite-root", 0) != 0) return;  // wrote outside the roots: keep nothing
    written[relocated] = text;
  }
  const json j = {{"version", 1},
                  {"exit_code", a.exit_code},
                  {"body", map_strings(a.body, [&](const std::string& s) { return relocate(s); })},
                  {"written", written}};
  base::publish_text(dir_ / key.substr(0, 2) / (key + ".json"), j.dump());
}

}  // namespace aoc::rewrite
