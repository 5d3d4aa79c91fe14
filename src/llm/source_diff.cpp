#include "llm/source_diff.h"

#include <filesystem>
#include <set>

#include "base/process.h"

namespace aoc::llm {
namespace fs = std::filesystem;

namespace {

// Files under `dir`, relative to it.
void add_files(const fs::path& dir, std::set<std::string>& out) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return;
  for (const auto& e : fs::recursive_directory_iterator(dir, ec))
    if (e.is_regular_file()) out.insert(e.path().lexically_relative(dir).generic_string());
}

}  // namespace

std::string source_diff(const aoc::eval::Candidate& from, const aoc::eval::Candidate& to) {
  std::string out;
  const std::pair<fs::path, fs::path> dirs[] = {{from.sources.host, to.sources.host},
                                                {from.sources.kernel, to.sources.kernel}};
  const char* roots[] = {"op_host", "op_kernel"};
  for (int i = 0; i < 2; ++i) {
    std::set<std::string> files;
    add_files(dirs[i].first, files);
    add_files(dirs[i].second, files);
    // One `diff -u` per file, labelled with its path in the candidate (a file one side lacks is
    // compared with an empty one).
    for (const auto& f : files) {
      const fs::path a = dirs[i].first / f, b = dirs[i].second / f;
      const std::string label = std::string(roots[i]) + "/" + f;
      out += aoc::base::run_process({"diff", "-u", "--label", "a/" + label, "--label", "b/" + label,
                                     fs::exists(a) ? a.string() : "/dev/null", fs::exists(b) ? b.string() : "/dev/null"})
                 .output;
    }
  }
  return out;
}

}  // namespace aoc::llm
