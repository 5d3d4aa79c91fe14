// What a model's answer asks to change, read strictly (docs/llm.md, "Answer format"):
//
//   op_kernel/add.cpp
//   <<<<<<< SEARCH
//   lines copied exactly from the file
//   =======
//   the lines that replace them
//   >>>>>>> REPLACE
//
// (OpenEvolve's SEARCH/REPLACE markers, each block preceded by the path of its file;
// a block right after another one may omit it and edits the same file), or whole files
// in fenced code blocks naming the file (```cpp op_kernel/add.cpp, or the path alone on
// the line before the fence). Unnamed code blocks and prose are ignored. <think>
// sections of reasoning models are skipped. In rewind mode a line "REMOVED: <what>"
// says which optimization the answer takes out.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace aoc::llm {

// Why an answer cannot be used: a stable code (for statistics and tests) and a message
// for the person and for the model's next attempt.
struct Unusable {
  std::string code;  // empty_answer, too_long, truncated, malformed_block, unnamed_block,
                     // no_edits, conflicting_edits, path_escape, unknown_file, ambiguous_file,
                     // empty_search, search_not_found, ambiguous_search, no_change, file_too_large
  std::string message;
};

class AnswerError : public std::runtime_error {
 public:
  AnswerError(std::string code, const std::string& message)
      : std::runtime_error(message), unusable_{std::move(code), message} {}
  const Unusable& unusable() const { return unusable_; }

 private:
  Unusable unusable_;
};

struct FileEdit {
  enum class Kind { SearchReplace, WholeFile };
  Kind kind = Kind::SearchReplace;
  std::string file;     // as the answer names it
  std::string search;   // SearchReplace: lines joined by '\n', no final newline
  std::string replace;  // SearchReplace: same; WholeFile: the new content
  size_t answer_line = 0;  // 1-based line of the answer where the edit starts
  size_t block = 0;        // 1-based number among the answer's edits
};

struct ParsedAnswer {
  std::vector<FileEdit> edits;
  std::string removed;  // rewind: the text after "REMOVED:"
};

struct AnswerLimits {
  size_t max_answer_chars = 120000;
};

// Throws AnswerError. `finish_reason` "length" turns an unterminated block into a
// "truncated" reason that says to raise max_tokens.
ParsedAnswer parse_answer(const std::string& answer, const std::string& finish_reason, const AnswerLimits& limits);

}  // namespace aoc::llm
