#include "llm/answer.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "llm/text_lines.h"

namespace aoc::llm {

namespace {

const char* const kSearch = "<<<<<<< SEARCH";
const char* const kDivider = "=======";
const char* const kReplace = ">>>>>>> REPLACE";

bool path_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '/' || c == '-' || c == '+';
}

// A path-like token: only path characters, with a '/' or an extension.
bool path_like(const std::string& t) {
  if (t.empty() || !std::all_of(t.begin(), t.end(), path_char)) return false;
  const auto dot = t.rfind('.');
  return t.find('/') != std::string::npos || (dot != std::string::npos && dot + 1 < t.size() && dot > 0);
}

// The path a line consists of, markdown decoration aside ("### `op_kernel/add.cpp`:",
// "File: op_kernel/add.cpp", "**op_kernel/add.cpp**"); empty when the line is anything else.
std::string path_of_line(const std::string& line) {
  std::string t = trim(line);
  auto strip_front = [&](const std::string& chars) {
    size_t i = 0;
    while (i < t.size() && (chars.find(t[i]) != std::string::npos || t[i] == ' ')) ++i;
    t.erase(0, i);
  };
  strip_front("#>*-");
  for (const char* prefix : {"file:", "path:", "filename:", "file name:"}) {
    const std::string p = prefix;
    if (t.size() > p.size() && std::equal(p.begin(), p.end(), t.begin(), [](char a, char b) {
          return a == std::tolower(static_cast<unsigned char>(b));
        })) {
      t = trim(t.substr(p.size()));
      break;
    }
  }
  auto strip_ends = [&]() {
    const std::string deco = "`*\"':";
    while (!t.empty() && deco.find(t.back()) != std::string::npos) t.pop_back();
    size_t i = 0;
    while (i < t.size() && deco.find(t[i]) != std::string::npos) ++i;
    t.erase(0, i);
  };
  strip_ends();
  return path_like(t) ? t : std::string();
}

// The file named in a fence's info string ("cpp op_kernel/add.cpp", "op_kernel/add.cpp").
std::string path_of_fence_info(const std::string& info) {
  std::string word;
  std::string found;
  for (size_t i = 0; i <= info.size(); ++i) {
    if (i == info.size() || std::isspace(static_cast<unsigned char>(info[i]))) {
      if (!word.empty() && path_like(word)) found = word;
      word.clear();
    } else {
      word += info[i];
    }
  }
  return found;
}

bool fence_delimiter(const std::string& t, std::string* info) {
  if (t.rfind("```", 0) != 0 && t.rfind("~~~", 0) != 0) return false;
  size_t i = 0;
  while (i < t.size() && (t[i] == '`' || t[i] == '~')) ++i;
  if (info != nullptr) *info = trim(t.substr(i));
  return true;
}

// Blank lines at the end of a block's half are layout, not content.
void drop_trailing_blank(std::vector<std::string>& v) {
  while (!v.empty() && trim(v.back()).empty()) v.pop_back();
}

// "REMOVED: double buffering" (markdown emphasis allowed) -> "double buffering".
std::string removed_note(const std::string& t) {
  size_t i = 0;
  while (i < t.size() && (t[i] == '*' || t[i] == '_' || t[i] == '#' || t[i] == ' ')) ++i;
  if (t.compare(i, 8, "REMOVED:") != 0) return "";
  std::string rest = t.substr(i + 8);
  while (!rest.empty() && (rest.back() == '*' || rest.back() == '_')) rest.pop_back();
  while (!rest.empty() && (rest.front() == '*' || rest.front() == '_')) rest.erase(0, 1);
  return trim(rest);
}

// The answer without <think> ... </think> sections.
std::string without_reasoning(const std::string& s, const std::string& finish_reason) {
  std::string out;
  size_t from = 0;
  while (true) {
    const size_t open = s.find("<think>", from);
    if (open == std::string::npos) {
      out += s.substr(from);
      return out;
    }
    out += s.substr(from, open - from);
    const size_t close = s.find("</think>", open);
    if (close == std::string::npos) {
      if (finish_reason == "length")
        throw AnswerError("truncated", "the answer was cut at max_tokens inside its <think> reasoning, before any "
                                       "edit; raise max_tokens");
      return out;
    }
    from = close + 8;
  }
}

}  // namespace

ParsedAnswer parse_answer(const std::string& raw, const std::string& finish_reason, const AnswerLimits& limits) {
  if (raw.size() > limits.max_answer_chars)
    throw AnswerError("too_long", "the answer has " + std::to_string(raw.size()) + " characters, more than "
                                  "max_answer_chars = " + std::to_string(limits.max_answer_chars) +
                                  "; answer with SEARCH/REPLACE blocks of the changed lines only");
  if (trim(raw).empty())
    throw AnswerError("empty_answer", std::string("the answer is empty") +
                                          (finish_reason == "length" ? " (cut at max_tokens; raise max_tokens)" : ""));
  const bool cut = finish_reason == "length";
  const std::vector<std::string> lines = split_lines(without_reasoning(raw, finish_reason));

  ParsedAnswer out;
  // What the last non-blank line outside a block said: a path, the end of a block, or other text.
  enum class Ctx { Other, Path, AfterBlock } ctx = Ctx::Other;
  std::string ctx_file;
  bool in_fence = false;
  std::string fence_file;
  size_t fence_start = 0;
  bool fence_has_blocks = false;
  std::vector<std::string> fence_lines;
  size_t unnamed_code_blocks = 0;

  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string t = trim(lines[i]);
    if (t == kSearch) {
      const size_t block = out.edits.size() + 1;
      std::string file;
      if (ctx == Ctx::Path || ctx == Ctx::AfterBlock) file = ctx_file;
      else if (in_fence && !fence_file.empty()) file = fence_file;
      if (file.empty())
        throw AnswerError("unnamed_block", "SEARCH/REPLACE block " + std::to_string(block) + " (answer line " +
                                               std::to_string(i + 1) + ") names no file: put the file's path, e.g. "
                                               "op_kernel/<name>.cpp, alone on the line before <<<<<<< SEARCH");
      std::vector<std::string> search, replace;
      int part = 0;
      size_t j = i + 1;
      bool closed = false;
      for (; j < lines.size(); ++j) {
        const std::string u = trim(lines[j]);
        if (u == kSearch)
          throw AnswerError("malformed_block", "block " + std::to_string(block) + " (answer line " +
                                                   std::to_string(i + 1) + ") is not closed before another "
                                                   "<<<<<<< SEARCH at answer line " + std::to_string(j + 1));
        if (u == kDivider) {
          if (part == 1)
            throw AnswerError("malformed_block", "block " + std::to_string(block) + " (answer line " +
                                                     std::to_string(i + 1) + ") has a second ======= divider at "
                                                     "answer line " + std::to_string(j + 1));
          part = 1;
          continue;
        }
        if (u == kReplace) {
          if (part == 0)
            throw AnswerError("malformed_block", "block " + std::to_string(block) + " (answer line " +
                                                     std::to_string(i + 1) + ") reaches >>>>>>> REPLACE without the "
                                                     "======= divider between the SEARCH and REPLACE halves");
          closed = true;
          break;
        }
        (part == 0 ? search : replace).push_back(lines[j]);
      }
      if (!closed) {
        if (cut)
          throw AnswerError("truncated", "the answer was cut at max_tokens inside block " + std::to_string(block) +
                                             " (" + file + "); raise max_tokens or ask for smaller edits");
        throw AnswerError("malformed_block", "block " + std::to_string(block) + " (" + file + ", answer line " +
                                                 std::to_string(i + 1) + ") is not closed: the answer ends before " +
                                                 (part == 0 ? "=======" : ">>>>>>> REPLACE"));
      }
      drop_trailing_blank(search);
      drop_trailing_blank(replace);
      FileEdit e;
      e.kind = FileEdit::Kind::SearchReplace;
      e.file = file;
      e.search = join_lines(search, 0, search.size());
      e.replace = join_lines(replace, 0, replace.size());
      e.answer_line = i + 1;
      e.block = block;
      out.edits.push_back(std::move(e));
      if (in_fence) fence_has_blocks = true;
      ctx = Ctx::AfterBlock;
      ctx_file = file;
      i = j;
      continue;
    }
    if (t == kReplace)
      throw AnswerError("malformed_block", "answer line " + std::to_string(i + 1) +
                                               ": >>>>>>> REPLACE without a <<<<<<< SEARCH before it");
    std::string info;
    if (fence_delimiter(t, &info)) {
      if (in_fence && info.empty()) {
        in_fence = false;
        if (fence_has_blocks) continue;
        if (fence_file.empty()) {
          ++unnamed_code_blocks;
          continue;
        }
        FileEdit e;
        e.kind = FileEdit::Kind::WholeFile;
        e.file = fence_file;
        e.replace = join_lines(fence_lines, 0, fence_lines.size()) + "\n";
        e.answer_line = fence_start + 1;
        e.block = out.edits.size() + 1;
        out.edits.push_back(std::move(e));
        continue;
      }
      if (!in_fence) {
        in_fence = true;
        fence_start = i;
        fence_has_blocks = false;
        fence_lines.clear();
        fence_file = path_of_fence_info(info);
        if (fence_file.empty() && ctx == Ctx::Path) fence_file = ctx_file;
        if (!fence_file.empty()) {
          ctx = Ctx::Path;
          ctx_file = fence_file;
        }
        continue;
      }
    }
    if (in_fence) fence_lines.push_back(lines[i]);
    if (t.empty()) continue;
    if (!in_fence && out.removed.empty()) out.removed = removed_note(t);
    const std::string p = path_of_line(t);
    if (!p.empty()) {
      ctx = Ctx::Path;
      ctx_file = p;
    } else {
      ctx = Ctx::Other;
    }
  }
  if (in_fence && !fence_has_blocks && !fence_file.empty()) {
    if (cut)
      throw AnswerError("truncated", "the answer was cut at max_tokens inside the code block of " + fence_file +
                                         "; raise max_tokens or answer with SEARCH/REPLACE blocks");
    throw AnswerError("malformed_block", "the code block of " + fence_file + " (answer line " +
                                             std::to_string(fence_start + 1) + ") is not closed with ```");
  }
  if (out.edits.empty()) {
    if (unnamed_code_blocks > 0)
      throw AnswerError("no_edits", "the answer has " + std::to_string(unnamed_code_blocks) +
                                        " code block(s) but none names its file; name the file in the fence "
                                        "(```cpp op_kernel/<name>.cpp) or use SEARCH/REPLACE blocks");
    throw AnswerError("no_edits", std::string("the answer has no SEARCH/REPLACE block and no fenced file") +
                                      (cut ? " (cut at max_tokens; raise max_tokens)" : ""));
  }
  return out;
}

}  // namespace aoc::llm
