#include "package/kernel_entry.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <regex>

#include "base/file_text.h"
#include "package/op_import.h"
#include "package/op_package.h"

namespace aoc::package {
namespace fs = std::filesystem;

namespace {

struct Macro {
  bool function_like = false;
  std::vector<std::string> params;
  std::string body;
};

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The source with line continuations joined and comments replaced by a space.
std::string logical_text(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '\n') {
      ++i;
    } else if (s.compare(i, 2, "//") == 0) {
      while (i < s.size() && s[i] != '\n') ++i;
      out += '\n';
    } else if (s.compare(i, 2, "/*") == 0) {
      const size_t end = s.find("*/", i + 2);
      i = end == std::string::npos ? s.size() : end + 1;
      out += ' ';
    } else if (s[i] == '"' || s[i] == '\'') {  // literals are copied whole (a "//" inside one is no comment)
      const char q = s[i];
      out += s[i];
      for (++i; i < s.size() && s[i] != q; ++i) {
        if (s[i] == '\\' && i + 1 < s.size()) out += s[i++];
        out += s[i];
      }
      if (i < s.size()) out += s[i];
    } else {
      out += s[i];
    }
  }
  return out;
}

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t\r\n") - a + 1);
}

// Splits `text` at its top-level commas.
std::vector<std::string> split_args(const std::string& text) {
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (char c : text) {
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!trim(cur).empty() || !out.empty()) out.push_back(trim(cur));
  return out;
}

// The #define lines of the text, and the text without its directives.
std::map<std::string, Macro> read_macros(const std::string& text, std::string& rest) {
  static const std::regex define(R"(^\s*#\s*define\s+(\w+)(\(([^)]*)\))?(.*)$)");
  std::map<std::string, Macro> macros;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(at, end - at);
    std::smatch m;
    if (std::regex_match(line, m, define)) {
      Macro mac;
      mac.function_like = m[2].matched;
      if (mac.function_like)
        for (const auto& p : split_args(m[3])) mac.params.push_back(p);
      mac.body = trim(m[4]);
      macros[m[1]] = std::move(mac);
    } else if (trim(line).rfind('#', 0) != 0) {
      rest += line;
    }
    rest += '\n';
    at = end + 1;
  }
  return macros;
}

// Substitutes the arguments into a function-like macro's body: `#p` stringizes, `a ## b` pastes.
std::string substitute(const Macro& mac, const std::vector<std::string>& args) {
  auto arg_of = [&](const std::string& name) -> const std::string* {
    for (size_t i = 0; i < mac.params.size() && i < args.size(); ++i)
      if (mac.params[i] == name) return &args[i];
    return nullptr;
  };
  std::string out;
  const std::string& b = mac.body;
  for (size_t i = 0; i < b.size();) {
    if (ident_char(b[i])) {
      size_t j = i;
      while (j < b.size() && ident_char(b[j])) ++j;
      const std::string word = b.substr(i, j - i);
      const std::string* a = arg_of(word);
      out += a ? *a : word;
      i = j;
    } else if (b[i] == '#' && i + 1 < b.size() && b[i + 1] == '#') {
      while (!out.empty() && std::isspace(static_cast<unsigned char>(out.back()))) out.pop_back();
      i += 2;
      while (i < b.size() && std::isspace(static_cast<unsigned char>(b[i]))) ++i;
    } else if (b[i] == '#') {
      size_t j = i + 1;
      while (j < b.size() && std::isspace(static_cast<unsigned char>(b[j]))) ++j;
      size_t k = j;
      while (k < b.size() && ident_char(b[k])) ++k;
      const std::string* a = arg_of(b.substr(j, k - j));
      out += a ? "\"" + *a + "\"" : b.substr(i, k - i);
      i = k;
    } else {
      out += b[i++];
    }
  }
  return out;
}

// Expands the macros of `macros` in `text` (each name at most `depth` levels deep, so a
// recursive definition ends).
std::string expand(const std::string& text, const std::map<std::string, Macro>& macros, int depth) {
  if (depth == 0) return text;
  std::string out;
  bool changed = false;
  for (size_t i = 0; i < text.size();) {
    if (!ident_char(text[i]) || (i > 0 && ident_char(text[i - 1]))) {
      out += text[i++];
      continue;
    }
    size_t j = i;
    while (j < text.size() && ident_char(text[j])) ++j;
    const std::string word = text.substr(i, j - i);
    const auto it = macros.find(word);
    if (it == macros.end()) {
      out += word;
      i = j;
      continue;
    }
    if (!it->second.function_like) {
      out += it->second.body;
      changed = true;
      i = j;
      continue;
    }
    size_t k = j;
    while (k < text.size() && std::isspace(static_cast<unsigned char>(text[k]))) ++k;
    if (k >= text.size() || text[k] != '(') {
      out += word;
      i = j;
      continue;
    }
    int level = 0;
    size_t close = k;
    for (; close < text.size(); ++close) {
      if (text[close] == '(') ++level;
      if (text[close] == ')' && --level == 0) break;
    }
    if (close >= text.size()) {
      out += text.substr(i);
      break;
    }
    out += substitute(it->second, split_args(text.substr(k + 1, close - k - 1)));
    changed = true;
    i = close + 1;
  }
  return changed ? expand(out, macros, depth - 1) : out;
}

void add_entries(const std::string& text, const fs::path& file, bool from_macro, std::vector<KernelEntry>& found) {
  static const std::regex entry(
      R"re(extern\s*"C"\s+(?:(?:__global__|__aicore__|__attribute__\s*\(\([^)]*\)\))\s+)+void\s+(\w+)\s*\(([^)]*)\))re");
  for (std::sregex_iterator it(text.begin(), text.end(), entry), end; it != end; ++it) {
    const std::string params = (*it)[2];
    const size_t n = trim(params).empty() ? 0 : static_cast<size_t>(std::count(params.begin(), params.end(), ',')) + 1;
    const std::string symbol = (*it)[1];
    const bool known = std::any_of(found.begin(), found.end(), [&](const KernelEntry& k) { return k.symbol == symbol; });
    if (!known) found.push_back({symbol, file, n, from_macro});
  }
}

}  // namespace

std::vector<KernelEntry> kernel_entries_in(const std::string& source, const fs::path& file,
                                           const std::string& header_text) {
  std::vector<KernelEntry> found;
  const std::string text = logical_text(source);
  std::string rest, header_rest;
  std::map<std::string, Macro> macros = read_macros(logical_text(header_text), header_rest);
  for (auto& [name, mac] : read_macros(text, rest)) macros[name] = std::move(mac);
  add_entries(rest, file, false, found);
  if (!macros.empty()) add_entries(expand(rest, macros, 8), file, true, found);
  return found;
}

KernelEntry find_kernel_entry(const fs::path& kernel_dir) {
  // Macros the sources may take from the folder's own headers.
  std::string headers;
  for (const auto& e : fs::directory_iterator(kernel_dir))
    if (e.is_regular_file() && (e.path().extension() == ".h" || e.path().extension() == ".hpp"))
      headers += base::read_text(e.path()) + "\n";
  std::vector<KernelEntry> found;
  for (const auto& f : cpp_files(kernel_dir))
    for (auto& k : kernel_entries_in(base::read_text(f), f, headers))
      if (std::none_of(found.begin(), found.end(), [&](const KernelEntry& x) { return x.symbol == k.symbol; }))
        found.push_back(std::move(k));
  if (found.empty())
    throw ImportError("no kernel entry found in " + kernel_dir.string() +
                      ": expected `extern \"C\" __global__ __aicore__ void <name>(GM_ADDR ..., GM_ADDR workspace, "
                      "GM_ADDR tiling)` in op_kernel/*.cpp, written out or produced by a macro defined there");
  if (found.size() > 1) {
    std::string all;
    for (const auto& k : found) all += " " + k.symbol;
    throw ImportError("several kernel entries in " + kernel_dir.string() + ":" + all +
                      "; keep one per operator folder (import each operator from its own folder)");
  }
  return found.front();
}

}  // namespace aoc::package
