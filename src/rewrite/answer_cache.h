// aoc-rewrite's answers kept in the build cache, keyed by what decides them: the rewriter's
// own executable, the AscendC headers, the command with its arguments, and the content of the
// sources it reads. The optimizer, Best-of-N and OpenEvolve ask the same questions of the same
// kernels in every run (detect on the baseline, apply each motif to it), each time in another
// run folder: a clang parse per question, about a second, for an answer that is already known.
//
// Folder names are taken out of the key and out of the stored answer (the rewriter reports
// real paths), so the same sources in another folder get the same answer, in that folder's
// names. An answer that edits files (--write) keeps the files it wrote; a hit writes them again.
// A stored answer that does not read back is a miss and is replaced.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace aoc::rewrite {

struct CachedAnswer {
  int exit_code = 0;
  nlohmann::json body;
  // Files the answer wrote, by path (in the requester's folders): their new content.
  std::vector<std::pair<std::string, std::string>> written;
};

class AnswerCache {
 public:
  // `roots`: the folders the rewriter reads and may edit, as the caller names them.
  AnswerCache(std::filesystem::path dir, std::vector<std::filesystem::path> roots);

  // The key of a run of `tool` with `argv` (the answer file left out) on the roots' content;
  // `headers` is the AscendC header folder the sources are parsed against.
  std::string key(const std::filesystem::path& tool, const std::vector<std::string>& argv,
                  const std::filesystem::path& headers) const;

  std::optional<CachedAnswer> find(const std::string& key) const;
  // Failure to store is not an error: the caller has its answer.
  void store(const std::string& key, const CachedAnswer& answer) const;

 private:
  std::string relocate(const std::string& text) const;  // the roots' paths -> placeholders
  std::string restore(const std::string& text) const;   // placeholders -> the roots' real paths
  std::filesystem::path dir_;
  std::vector<std::string> spelled_, real_, placeholders_;  // each root: as given, real path, placeholder
};

}  // namespace aoc::rewrite
