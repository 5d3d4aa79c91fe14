#include "build/object_cache.h"

#include <algorithm>
#include <cctype>
#include <system_error>

#include "base/published_file.h"

namespace aoc::build {
namespace fs = std::filesystem;

std::string substitute_folders(const std::string& text, const std::vector<std::string>& from,
                               const std::vector<std::string>& to) {
  std::vector<size_t> order(from.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return from[a].size() > from[b].size(); });
  auto name_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.'; };
  std::string s = text;
  for (size_t i : order) {
    if (from[i].empty()) continue;
    for (size_t at = s.find(from[i]); at != std::string::npos;) {
      const size_t end = at + from[i].size();
      if (end < s.size() && name_char(s[end])) {
        at = s.find(from[i], at + 1);
        continue;
      }
      s.replace(at, from[i].size(), to[i]);
      at = s.find(from[i], at + to[i].size());
    }
  }
  return s;
}

std::string relocated(const std::string& flag, const std::vector<fs::path>& dirs) {
  std::vector<std::string> from, to;
  for (size_t i = 0; i < dirs.size(); ++i) {
    from.push_back(dirs[i].string());
    to.push_back("@dir" + std::to_string(i));
  }
  return substitute_folders(flag, from, to);
}

std::vector<std::string> relocation_flags(const std::vector<fs::path>& dirs) {
  std::vector<std::string> out;
  for (const auto& d : dirs) {
    const fs::path name = d.filename().empty() ? d.parent_path().filename() : d.filename();
    out.push_back("-ffile-prefix-map=" + d.string() + "=" + name.string());
  }
  return out;
}

std::vector<fs::path> depfile_dependencies(const std::string& text) {
  // Make syntax: "target: dep dep \<newline> dep", a space inside a name escaped as "\ ".
  std::vector<fs::path> out;
  std::string word;
  bool target_done = false;
  auto flush = [&]() {
    if (word.empty()) return;
    if (!target_done && word.back() == ':') {
      target_done = true;  // "target:" written without a space before the colon
    } else if (target_done) {
      out.emplace_back(word);
    }
    word.clear();
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\' && i + 1 < text.size() && (text[i + 1] == '\n' || text[i + 1] == ' ')) {
      if (text[i + 1] == ' ') word += ' ';
      else flush();
      ++i;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      flush();
    } else if (c == ':' && !target_done && (i + 1 == text.size() || text[i + 1] == ' ' || text[i + 1] == '\n')) {
      word.clear();
      target_done = true;
    } else {
      word += c;
    }
  }
  flush();
  return out;
}

bool dependencies_within(const std::vector<fs::path>& deps, const std::vector<fs::path>& allowed) {
  std::vector<std::string> roots;
  for (const auto& a : allowed) {
    std::string r = a.lexically_normal().string();
    if (!r.empty() && r.back() != '/') r += '/';
    roots.push_back(r);
  }
  for (const auto& d : deps) {
    const std::string p = (d.is_absolute() ? d : fs::absolute(d)).lexically_normal().string();
    const bool inside = std::any_of(roots.begin(), roots.end(), [&](const std::string& r) { return p.rfind(r, 0) == 0; });
    if (!inside) return false;
  }
  return true;
}

fs::path ObjectCache::path_in(const fs::path& dir, const std::string& key) { return dir / key.substr(0, 2) / (key + ".o"); }

std::optional<fs::path> ObjectCache::find(const std::string& key) const {
  std::error_code ec;
  for (const auto& dir : read_only_)
    if (const fs::path p = path_in(dir, key); fs::is_regular_file(p, ec)) return p;
  if (const fs::path p = path_in(dir_, key); fs::is_regular_file(p, ec)) return p;
  return std::nullopt;
}

void ObjectCache::store(const std::string& key, const fs::path& object) const {
  base::publish_copy(path_in(dir_, key), object);  // builders on several threads may store the same key
}

}  // namespace aoc::build
