#include "llm/candidate_edit.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <set>

#include <toml++/toml.h>

#include "base/file_text.h"
#include "llm/text_lines.h"

namespace aoc::llm {
namespace fs = std::filesystem;

namespace {

void add_tree(SourceTree& t, const fs::path& root, const std::string& prefix) {
  if (!fs::is_directory(root)) return;
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) t.files[prefix + "/" + f.lexically_relative(root).generic_string()] = base::read_text_or_throw(f);
}

std::string file_list(const SourceTree& t) {
  std::string s;
  for (const auto& [name, _] : t.files) s += (s.empty() ? "" : ", ") + name;
  return s;
}

std::string quote_line(const std::string& l) {
  std::string t = trim(l);
  if (t.size() > 100) t = t.substr(0, 100) + "...";
  return "`" + t + "`";
}

std::string where(const FileEdit& e, const std::string& file) {
  return "block " + std::to_string(e.block) + " (" + file + ", answer line " + std::to_string(e.answer_line) + ")";
}

// Positions where `s` matches `f` line by line, trailing whitespace ignored.
std::vector<size_t> matches(const std::vector<std::string>& f, const std::vector<std::string>& s) {
  std::vector<size_t> at;
  if (s.size() > f.size()) return at;
  for (size_t i = 0; i + s.size() <= f.size(); ++i) {
    size_t k = 0;
    while (k < s.size() && rtrim(f[i + k]) == rtrim(s[k])) ++k;
    if (k == s.size()) at.push_back(i);
  }
  return at;
}

// Why `s` is not in `f`, pointing at the nearest miss so the next attempt can fix it.
std::string not_found_detail(const std::vector<std::string>& f, const std::vector<std::string>& s) {
  bool first_found = false;
  size_t best_len = 0, best_at = 0;
  for (size_t i = 0; i < f.size(); ++i) {
    if (trim(f[i]) != trim(s[0])) continue;
    first_found = true;
    size_t loose = 0;
    while (loose < s.size() && i + loose < f.size() && trim(f[i + loose]) == trim(s[loose])) ++loose;
    if (loose == s.size()) return "; it matches file line " + std::to_string(i + 1) +
                                  " only with different indentation: copy the lines exactly";
    size_t k = 0;
    while (k < s.size() && i + k < f.size() && rtrim(f[i + k]) == rtrim(s[k])) ++k;
    if (k > best_len) {
      best_len = k;
      best_at = i;
    }
  }
  if (!first_found) return "; its first line " + quote_line(s[0]) + " is not in the file";
  if (best_len == 0) return "; its first line " + quote_line(s[0]) + " differs in indentation from the file";
  const std::string file_line = best_at + best_len < f.size() ? quote_line(f[best_at + best_len]) : "the end of the file";
  return "; its first " + std::to_string(best_len) + " line(s) match at file line " + std::to_string(best_at + 1) +
         ", then SEARCH line " + std::to_string(best_len + 1) + " " + quote_line(s[best_len]) + " differs from " +
         file_line;
}

std::string lines_to_text(const std::vector<std::string>& lines, bool final_newline) {
  std::string s = join_lines(lines, 0, lines.size());
  if (final_newline && !lines.empty()) s += '\n';
  return s;
}

}  // namespace

SourceTree read_sources(const aoc::eval::Candidate& c) {
  SourceTree t;
  t.package_dir = fs::absolute(c.package.dir).lexically_normal();
  add_tree(t, c.sources.host, "op_host");
  add_tree(t, c.sources.kernel, "op_kernel");
  return t;
}

std::string resolve_file(const SourceTree& tree, const std::string& name) {
  if (name.empty() || name[0] == '/' || name.find('\\') != std::string::npos || name.find(':') != std::string::npos)
    throw AnswerError("path_escape", "file " + name + " is not a path inside the candidate; name files relative to "
                                     "the candidate, e.g. op_kernel/<name>.cpp");
  std::vector<std::string> parts;
  std::string part;
  for (size_t i = 0; i <= name.size(); ++i) {
    if (i < name.size() && name[i] != '/') {
      part += name[i];
      continue;
    }
    if (part == "..")
      throw AnswerError("path_escape", "file " + name + " leaves the candidate (..); name files relative to the "
                                       "candidate, e.g. op_kernel/<name>.cpp");
    if (!part.empty() && part != ".") parts.push_back(part);
    part.clear();
  }
  auto join_from = [&](size_t k) {
    std::string s;
    for (size_t i = k; i < parts.size(); ++i) s += (i > k ? "/" : "") + parts[i];
    return s;
  };
  if (parts.empty()) throw AnswerError("unknown_file", "file '" + name + "' names no file");
  if (const std::string exact = join_from(0); tree.files.count(exact)) return exact;
  for (size_t k = 1; k < parts.size(); ++k)
    if ((parts[k] == "op_kernel" || parts[k] == "op_host") && tree.files.count(join_from(k))) return join_from(k);
  if (parts.size() == 1) {
    std::vector<std::string> same;
    for (const auto& [f, _] : tree.files)
      if (fs::path(f).filename() == parts[0]) same.push_back(f);
    if (same.size() == 1) return same[0];
    if (same.size() > 1)
      throw AnswerError("ambiguous_file", "file " + name + " could be " + same[0] + " or " + same[1] +
                                              "; name it with its folder");
  }
  throw AnswerError("unknown_file", "file " + name + " is not a file of the candidate (its files: " +
                                        file_list(tree) + ")");
}

AppliedAnswer apply_edits(const SourceTree& base, const ParsedAnswer& answer, const ApplyLimits& limits) {
  AppliedAnswer out;
  out.tree = base;
  std::map<std::string, std::string>& files = out.tree.files;
  std::set<std::string> whole;
  std::map<std::string, int> patched;  // SEARCH/REPLACE blocks applied per file
  for (const FileEdit& e : answer.edits) {
    const std::string file = resolve_file(base, e.file);
    const bool is_whole = e.kind == FileEdit::Kind::WholeFile;
    if (whole.count(file) || (is_whole && patched.count(file)))
      throw AnswerError("conflicting_edits", where(e, file) + " edits " + file +
                                                 ", which the answer also gives whole; send either the whole file "
                                                 "or SEARCH/REPLACE blocks for it");
    std::string& content = files[file];
    if (is_whole) {
      whole.insert(file);
      content = e.replace;
      continue;
    }
    const bool after_earlier = patched[file]++ > 0;
    const std::vector<std::string> s = split_lines(e.search);
    if (std::all_of(s.begin(), s.end(), [](const std::string& l) { return trim(l).empty(); }))
      throw AnswerError("empty_search", where(e, file) + " has an empty SEARCH half; copy the lines to replace "
                                                         "from the file, or send the whole file in a named code block");
    std::vector<std::string> f = split_lines(content);
    const bool final_newline = !content.empty() && content.back() == '\n';
    const std::vector<size_t> at = matches(f, s);
    if (at.empty())
      throw AnswerError("search_not_found", "the SEARCH text of " + where(e, file) + " is not in the file" +
                                                (after_earlier ? " (after the earlier blocks for it)" : "") +
                                                not_found_detail(f, s));
    if (at.size() > 1) {
      std::string lines;
      for (size_t i = 0; i < at.size() && i < 5; ++i) lines += (i ? ", " : "") + std::to_string(at[i] + 1);
      throw AnswerError("ambiguous_search", "the SEARCH text of " + where(e, file) + " occurs " +
                                                std::to_string(at.size()) + " times (file lines " + lines +
                                                "); add neighbouring lines so it matches once");
    }
    const std::vector<std::string> r = split_lines(e.replace);
    f.erase(f.begin() + static_cast<std::ptrdiff_t>(at[0]), f.begin() + static_cast<std::ptrdiff_t>(at[0] + s.size()));
    f.insert(f.begin() + static_cast<std::ptrdiff_t>(at[0]), r.begin(), r.end());
    content = lines_to_text(f, final_newline || content.empty());
  }
  for (const auto& [name, content] : files) {
    if (content == base.files.at(name)) continue;
    if (content.size() > limits.max_file_bytes)
      throw AnswerError("file_too_large", name + " would have " + std::to_string(content.size()) +
                                              " bytes, more than " + std::to_string(limits.max_file_bytes));
    out.changed.push_back(name);
  }
  if (out.changed.empty())
    throw AnswerError("no_change", "the answer's edits leave every file as it was; change the code");
  return out;
}

void write_candidate(const SourceTree& tree, const fs::path& dir_in) {
  const fs::path dir = fs::absolute(dir_in).lexically_normal();
  std::error_code ec;
  if (fs::exists(dir, ec) && !(fs::is_directory(dir, ec) && fs::is_empty(dir, ec)))
    throw std::runtime_error(dir.string() + " already exists and is not an empty folder; choose a new output folder");
  auto failed = [&](const std::string& what) {
    throw std::runtime_error("cannot write the candidate " + dir.string() + ": " + what);
  };
  fs::create_directories(dir.parent_path(), ec);
  if (ec) failed(ec.message());
  std::string tmpl = dir.string() + ".partial-XXXXXX";
  if (::mkdtemp(tmpl.data()) == nullptr) failed("cannot create a folder beside it");
  const fs::path tmp = tmpl;
  try {
    for (const auto& [name, content] : tree.files) {
      const fs::path p = tmp / name;
      fs::create_directories(p.parent_path());
      std::ofstream out(p, std::ios::binary | std::ios::trunc);
      out << content;
      out.close();
      if (!out) failed("writing " + name);
    }
    toml::table t{{"package", tree.package_dir.string()}};
    std::ofstream out(tmp / "candidate.toml");
    out << "# A candidate of the operator package below, written from a model's answer (docs/llm.md).\n" << t << "\n";
    out.close();
    if (!out) failed("writing candidate.toml");
    if (fs::exists(dir)) fs::remove(dir);  // the empty folder
    fs::rename(tmp, dir);
  } catch (const std::exception& e) {
    fs::remove_all(tmp, ec);
    throw std::runtime_error(std::string(e.what()).rfind("cannot write", 0) == 0
                                 ? e.what()
                                 : "cannot write the candidate " + dir.string() + ": " + e.what());
  }
}

}  // namespace aoc::llm
