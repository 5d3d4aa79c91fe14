#include "build/foreign_lines.h"

#include <regex>
#include <sstream>

namespace aoc::build {
namespace fs = std::filesystem;

namespace {

bool within(const fs::path& file, const std::vector<fs::path>& folders) {
  const fs::path f = file.lexically_normal();
  for (const auto& d : folders) {
    const std::string rel = f.lexically_relative(d.lexically_normal()).generic_string();
    if (!rel.empty() && rel != ".." && rel.rfind("../", 0) != 0) return true;
  }
  return false;
}

}  // namespace

std::string withhold_foreign_lines(const std::string& log, const std::vector<fs::path>& folders) {
  // A message's location: "path:line[:col]: ...", "path: In function ...", and the include chain
  // "In file included from path:line," / "                 from path:line:".
  static const std::regex located(R"(^(?:In file included from |\s+from )?(/[^:]*):(?:\d|\s))");
  // What g++ prints under a message: the source line ("   12 | code") and the caret line.
  static const std::regex excerpt(R"(^\s*\d*\s*\|)");
  std::istringstream in(log);
  std::string out, line;
  size_t withheld = 0;
  bool in_foreign = false;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_search(line, m, located)) {
      in_foreign = !within(m.str(1), folders);
    } else if (!(in_foreign && std::regex_search(line, excerpt))) {
      in_foreign = false;
    }
    if (in_foreign) {
      ++withheld;
      continue;
    }
    out += line;
    out += '\n';
  }
  if (withheld > 0)
    out += "(" + std::to_string(withheld) +
           " lines of compiler output about files outside the build's folders withheld)\n";
  return out;
}

}  // namespace aoc::build
