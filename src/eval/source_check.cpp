#include "eval/source_check.h"

#include <algorithm>
#include <fstream>
#include <mutex>
#include <regex>
#include <sstream>
#include <unordered_map>

#include "base/content_hash.h"
#include "eval/include_check.h"
#include "package/op_package.h"

namespace aoc::eval {
namespace fs = std::filesystem;

namespace {

struct Rule {
  const char* name;
  std::regex pattern;  // matched against code with comments and literals blanked
  const char* advice;
};

const std::vector<Rule>& code_rules() {
  static const std::vector<Rule> rules = [] {
    const auto re = [](const char* s) { return std::regex(s, std::regex::ECMAScript | std::regex::optimize); };
    std::vector<Rule> r;
    r.push_back({"file-io",
                 re(R"(#\s*include\s*[<"](fstream|cstdio|stdio\.h|filesystem|fcntl\.h|sys/stat\.h|sys/mman\.h|dirent\.h)[>"]|\b(fopen|freopen|fdopen|fwrite|fread|fputs|fgets|fscanf|fprintf|ofstream|ifstream|fstream|filebuf|creat|openat|unlink|rmdir|mkdir|opendir|truncate|ftruncate|mmap)\b|(^|[^\w.>:]|::)(open|read|write|close|pread|pwrite)\s*\()"),
                 "kernels and tiling code may not do host file I/O"});
    r.push_back({"network",
                 re(R"(#\s*include\s*[<"](sys/socket\.h|netinet/[\w.]+|arpa/[\w.]+|netdb\.h)[>"]|\b(socket|connect|bind|listen|accept|sendto|recvfrom|getaddrinfo|gethostbyname)\s*\()"),
                 "kernels may not use the network"});
    r.push_back({"threads",
                 re(R"(#\s*include\s*[<"](thread|future|pthread\.h)[>"]|\bstd::(thread|jthread|async)\b|\bpthread_\w+)"),
                 "kernels may not start threads; parallelism comes from blockDim"});
    r.push_back({"processes",
                 re(R"(#\s*include\s*[<"](unistd\.h|spawn\.h|sys/wait\.h|signal\.h|csignal)[>"]|\b(fork|vfork|execl|execlp|execle|execv|execvp|execve|execvpe|system|popen|posix_spawnp?|kill|waitpid|ptrace)\s*\()"),
                 "kernels may not start or signal processes"});
    r.push_back({"clock",
                 re(R"(#\s*include\s*[<"](chrono|ctime|time\.h|sys/time\.h)[>"]|\bstd::chrono\b|\b(clock|clock_gettime|gettimeofday|time|nanosleep|usleep|sleep|alarm|setitimer|timer_create|__rdtsc|rdtsc)\s*\()"),
                 "timing is measured by the evaluator; kernels may not read or set clocks"});
    r.push_back({"environment", re(R"(\b(getenv|secure_getenv|setenv|putenv|unsetenv|environ)\b)"),
                 "kernels may not read or change the environment"});
    r.push_back({"asm", re(R"(\b(asm|__asm__|__asm)\b)"), "inline assembly is not allowed"});
    r.push_back({"syscall", re(R"(\bsyscall\s*\(|\b__NR_\w+|#\s*include\s*[<"]sys/syscall\.h[>"])"),
                 "raw system calls are not allowed"});
    r.push_back({"dynamic-loading", re(R"(#\s*include\s*[<"]dlfcn\.h[>"]|\b(dlopen|dlmopen|dlsym|dlvsym)\b)"),
                 "kernels may not load libraries"});
    r.push_back({"int-to-pointer",
                 re(R"(reinterpret_cast\s*<[^>]*\*\s*>\s*\(\s*(0[xX][0-9a-fA-F]+|\d+|\(?\s*u?intptr_t\b)|\(\s*[\w:<>\s]+\*\s*\)\s*(0[xX][0-9a-fA-F]+|[1-9]\d*)\b)"),
                 "memory is reached through the kernel's GM arguments, never through integer addresses"});
    return r;
  }();
  return rules;
}

const std::regex& path_literal() {
  static const std::regex re(R"(^/(proc|sys|dev)(/|$))");
  return re;
}

// Blanks comments and literals (keeping line structure) and collects string literals
// with their line numbers.
struct Stripped {
  std::string code;
  std::vector<std::pair<int, std::string>> strings;
};

Stripped strip(const std::string& s) {
  Stripped out;
  out.code.reserve(s.size());
  int line = 1;
  size_t i = 0;
  auto keep_newlines = [&](size_t from, size_t to) {
    for (size_t k = from; k < to; ++k) {
      out.code.push_back(s[k] == '\n' ? '\n' : ' ');
      if (s[k] == '\n') ++line;
    }
  };
  while (i < s.size()) {
    if (s.compare(i, 2, "//") == 0) {
      const size_t e = s.find('\n', i);
      const size_t end = e == std::string::npos ? s.size() : e;
      keep_newlines(i, end);
      i = end;
    } else if (s.compare(i, 2, "/*") == 0) {
      const size_t e = s.find("*/", i + 2);
      const size_t end = e == std::string::npos ? s.size() : e + 2;
      keep_newlines(i, end);
      i = end;
    } else if (s[i] == '"' || s[i] == '\'') {
      // Include directives keep their header name visible to the rules.
      const size_t bol = out.code.rfind('\n');
      const std::string_view head(out.code.data() + (bol == std::string::npos ? 0 : bol + 1),
                                  out.code.size() - (bol == std::string::npos ? 0 : bol + 1));
      const bool include = s[i] == '"' && head.find("include") != std::string_view::npos;
      const char q = s[i];
      size_t k = i + 1;
      std::string text;
      while (k < s.size() && s[k] != q && s[k] != '\n') {
        if (s[k] == '\\' && k + 1 < s.size()) text.push_back(s[++k]);
        else text.push_back(s[k]);
        ++k;
      }
      const size_t end = std::min(s.size(), k + 1);
      if (q == '"') out.strings.emplace_back(line, text);
      if (include) {
        out.code.append(s, i, end - i);
        i = end;
      } else {
        out.code.push_back(q);
        keep_newlines(i + 1, end > i + 1 ? end - 1 : i + 1);
        if (end > i + 1) out.code.push_back(q);
        i = end;
      }
    } else {
      if (s[i] == '\n') ++line;
      out.code.push_back(s[i++]);
    }
  }
  return out;
}

std::string trim(std::string s) {
  const auto b = s.find_first_not_of(" \t(");
  const auto e = s.find_last_not_of(" \t(");
  return b == std::string::npos ? s : s.substr(b, e - b + 1);
}

}  // namespace

std::string SourceFinding::message() const {
  std::string advice = this->advice;
  for (const auto& r : code_rules())
    if (advice.empty() && rule == r.name) advice = std::string(r.advice) + "; remove it";
  if (advice.empty() && rule == "proc-fs") advice = "kernels may not read system files; remove it";
  const std::string where =
      file + (line > 0 ? ":" + std::to_string(line) : "") + (column > 0 ? ":" + std::to_string(column) : "");
  if (rule == "api-use")
    return where + ": rule 'api-use': `" + text + "`: " + advice +
           "; a candidate may name only the AscendC API, its own code and the allowed library" +
           (advice.find("docs/eval.md") == std::string::npos ? " (docs/eval.md, \"API use\")" : "");
  return where + ": rule '" + rule + "': `" + text + "`: " + advice;
}

std::vector<SourceFinding> check_source_text(const std::string& file, const std::string& text) {
  std::vector<SourceFinding> out;
  const Stripped st = strip(text);
  std::istringstream is(st.code);
  std::string line;
  int n = 0;
  while (std::getline(is, line)) {
    ++n;
    for (const auto& r : code_rules()) {
      std::smatch m;
      if (std::regex_search(line, m, r.pattern)) out.push_back({file, n, r.name, trim(m.str(0))});
    }
  }
  for (const auto& [ln, s] : st.strings)
    if (std::regex_search(s, path_literal())) out.push_back({file, ln, "proc-fs", "\"" + s + "\""});
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.line < b.line; });
  return out;
}

namespace {

// The findings of a file's text (file names left empty), each text checked once per process:
// a search evaluates the same kernel under many configurations, and the rules are regular
// expressions over every line.
std::vector<SourceFinding> checked_before(const std::string& text) {
  static std::mutex mu;
  static std::unordered_map<std::string, std::vector<SourceFinding>> known;
  const std::string key = base::ContentHash().add(text).hex();
  {
    std::lock_guard lock(mu);
    if (auto it = known.find(key); it != known.end()) return it->second;
  }
  std::vector<SourceFinding> found = check_source_text("", text);
  std::lock_guard lock(mu);
  known.emplace(key, found);
  return found;
}

}  // namespace

std::vector<SourceFinding> check_sources(const std::vector<fs::path>& dirs, const IncludeScope* includes) {
  std::vector<fs::path> files;
  std::vector<SourceFinding> out;
  for (const auto& d : dirs) {
    if (!fs::is_directory(d)) continue;
    for (const auto& e : fs::recursive_directory_iterator(d)) {
      if (includes != nullptr && e.is_symlink()) {
        auto bad = check_link(e.path(), *includes);
        out.insert(out.end(), bad.begin(), bad.end());
      }
      const auto ext = e.path().extension().string();
      if (e.is_regular_file() && (ext == ".cpp" || ext == ".cc" || ext == ".h" || ext == ".hpp")) files.push_back(e.path());
    }
  }
  std::sort(files.begin(), files.end());
  // op_host's aclnn API layer is never built (package::host_cpp_files): nothing of it runs, and its
  // includes reach CANN's runtime headers and other operators' folders.
  std::erase_if(files, [](const fs::path& f) {
    return f.parent_path().filename() == "op_host" && f.extension() == ".cpp" && package::is_op_api_source(f);
  });
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto found = checked_before(text);
    for (auto& x : found) x.file = f.string();
    // Where a file is decides what its includes reach: checked on every call, not by content.
    if (includes != nullptr) {
      auto bad = check_includes(f, text, *includes);
      found.insert(found.end(), bad.begin(), bad.end());
      std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.line < b.line; });
    }
    out.insert(out.end(), found.begin(), found.end());
  }
  return out;
}

}  // namespace aoc::eval
