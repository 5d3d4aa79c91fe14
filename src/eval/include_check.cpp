#include "eval/include_check.h"

#include <regex>
#include <system_error>

namespace aoc::eval {
namespace fs = std::filesystem;

namespace {

struct LogicalLine {
  int line = 1;  // the physical line it starts on
  std::string text;
};

// Translation phase 2: a backslash ending a line (g++ also allows blanks after it) joins the
// line to the next, so `#inc\` + `lude` is a directive and must be read as one.
std::vector<LogicalLine> logical_lines(const std::string& s) {
  std::vector<LogicalLine> out;
  int physical = 1;
  LogicalLine cur;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\') {
      size_t j = i + 1;
      while (j < s.size() && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r')) ++j;
      if (j < s.size() && s[j] == '\n') {
        ++physical;
        i = j;
        continue;
      }
    }
    if (s[i] == '\n') {
      out.push_back(std::move(cur));
      cur = LogicalLine{++physical, ""};
      continue;
    }
    cur.text.push_back(s[i]);
  }
  out.push_back(std::move(cur));
  return out;
}

// The line with comments replaced by a blank (block comments may span lines: `in_block`
// carries the state); string and character literals are kept whole.
std::string without_comments(const std::string& line, bool& in_block) {
  std::string out;
  for (size_t i = 0; i < line.size();) {
    if (in_block) {
      const size_t e = line.find("*/", i);
      if (e == std::string::npos) break;
      in_block = false;
      out.push_back(' ');
      i = e + 2;
    } else if (line.compare(i, 2, "//") == 0) {
      break;
    } else if (line.compare(i, 2, "/*") == 0) {
      in_block = true;
      i += 2;
    } else if (line[i] == '"' || line[i] == '\'') {
      const char q = line[i];
      out.push_back(line[i++]);
      while (i < line.size() && line[i] != q) {
        if (line[i] == '\\' && i + 1 < line.size()) out.push_back(line[i++]);
        out.push_back(line[i++]);
      }
      if (i < line.size()) out.push_back(line[i++]);
    } else {
      out.push_back(line[i++]);
    }
  }
  return out;
}

bool inside(const fs::path& p, const fs::path& dir) {
  const std::string rel = p.lexically_relative(dir).generic_string();
  return !rel.empty() && rel != ".." && rel.rfind("../", 0) != 0;
}

// `p` (existing) by its real path, inside one of the allowed folders (also by real paths).
bool reaches_allowed(const fs::path& p, const IncludeScope& scope) {
  std::error_code ec;
  const fs::path real = fs::canonical(p, ec);
  if (ec) return false;
  for (const auto& a : scope.allowed) {
    const fs::path ra = fs::weakly_canonical(a, ec);
    if (!ec && (real == ra || inside(real, ra))) return true;
  }
  return false;
}

bool has_parent_step(const fs::path& p) {
  for (const auto& part : p)
    if (part == "..") return true;
  return false;
}

constexpr const char* kKeepInside =
    "include only files of the candidate's op_host/ and op_kernel/, the package folder or the AscendC "
    "headers, by a path relative to them";

struct Checker {
  const fs::path& file;
  const IncludeScope& scope;
  std::vector<SourceFinding>& out;

  void add(int line, const std::string& text, const std::string& advice) {
    SourceFinding f{file.string(), line, "include", text};
    f.advice = advice;
    out.push_back(std::move(f));
  }

  // A header name as written: <path> (`quoted` false) or "path".
  void check_path(int line, const std::string& shown, const std::string& path, bool quoted) {
    const fs::path p(path);
    if (p.is_absolute()) {
      add(line, shown, "an absolute path reaches outside the candidate; " + std::string(kKeepInside));
      return;
    }
    if (!has_parent_step(p)) return;  // found in the including file's folder, a -I folder or the system's
    // The preprocessor takes the first folder where the path names a file: the including
    // file's own (quoted form only), then the -I folders in order, then the system's.
    std::vector<fs::path> folders;
    if (quoted) folders.push_back(file.parent_path());
    folders.insert(folders.end(), scope.search.begin(), scope.search.end());
    for (const auto& f : folders) {
      std::error_code ec;
      if (!fs::is_regular_file(f / p, ec)) continue;
      if (reaches_allowed(f / p, scope)) return;
      add(line, shown, "the path leaves the candidate's folders (to " + (f / p).lexically_normal().string() + "); " +
                           kKeepInside);
      return;
    }
    // Not found in the candidate's folders: the system folders would be searched with "..".
    add(line, shown, "the path with \"..\" names no file inside the candidate's folders; " + std::string(kKeepInside));
  }

  // `rest` follows the directive name or the opening parenthesis of __has_include.
  void check_header_name(int line, const std::string& what, const std::string& rest) {
    const size_t b = rest.find_first_not_of(" \t");
    const char open = b == std::string::npos ? '\0' : rest[b];
    if (open == '<' || open == '"') {
      const size_t e = rest.find(open == '<' ? '>' : '"', b + 1);
      if (e != std::string::npos) {
        check_path(line, what + " " + rest.substr(b, e - b + 1), rest.substr(b + 1, e - b - 1), open == '"');
        return;
      }
    }
    add(line, what + " " + (b == std::string::npos ? "" : rest.substr(b)),
        "a computed include (a macro naming the header) cannot be checked; write the header's name in \"\" or <>");
  }
};

}  // namespace

std::vector<SourceFinding> check_includes(const fs::path& file, const std::string& text, const IncludeScope& scope) {
  static const std::regex directive(R"(^\s*(?:#|%:)\s*(include_next|include|import)\b(.*)$)");
  static const std::regex dependency(R"(^\s*(?:#|%:)\s*pragma\s+GCC\s+dependency\b|\b_Pragma\s*\(\s*"\s*GCC\s+dependency\b)");
  static const std::regex has_include(R"(\b(__has_include_next|__has_include)\s*\()");
  std::vector<SourceFinding> out;
  Checker check{file, scope, out};
  bool in_block = false;
  for (const LogicalLine& l : logical_lines(text)) {
    const std::string code = without_comments(l.text, in_block);
    std::smatch m;
    if (std::regex_match(code, m, directive)) {
      check.check_header_name(l.line, "#" + m.str(1), m.str(2));
      continue;
    }
    if (std::regex_search(code, m, dependency)) {
      check.add(l.line, "#pragma GCC dependency",
                "it makes the compiler read another file; remove it (the build cache already tracks the sources)");
      continue;
    }
    for (auto it = std::sregex_iterator(code.begin(), code.end(), has_include); it != std::sregex_iterator(); ++it)
      check.check_header_name(l.line, (*it).str(1), code.substr(static_cast<size_t>((*it).position() + (*it).length())));
  }
  return out;
}

std::vector<SourceFinding> check_link(const fs::path& entry, const IncludeScope& scope) {
  std::error_code ec;
  if (!fs::is_symlink(fs::symlink_status(entry, ec))) return {};
  if (fs::exists(entry, ec) && reaches_allowed(entry, scope)) return {};
  SourceFinding f{entry.string(), 0, "include", "symbolic link to " + fs::read_symlink(entry, ec).string()};
  f.advice = "the link points outside the candidate's folders; replace it by the file itself";
  return {f};
}

}  // namespace aoc::eval
