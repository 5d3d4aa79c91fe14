#include "llm/bank_experience.h"

#include <iomanip>
#include <regex>
#include <sstream>

namespace aoc::llm {

namespace {

bool starts_with(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

}  // namespace

std::string reverse_unified_diff(const std::string& diff) {
  static const std::regex hunk(R"(^@@ -(\S+) \+(\S+) @@(.*)$)");
  std::string out, removed, added;  // the current change, as it will be printed
  auto flush = [&] {
    out += removed + added;
    removed.clear();
    added.clear();
  };
  auto take = [&](const std::string& line) {
    std::smatch m;
    if (std::regex_match(line, m, hunk)) {
      flush();
      out += "@@ -" + m[2].str() + " +" + m[1].str() + " @@" + m[3].str() + "\n";
    } else if (starts_with(line, "-")) {
      added += "+" + line.substr(1) + "\n";
    } else if (starts_with(line, "+")) {
      removed += "-" + line.substr(1) + "\n";
    } else {
      flush();
      out += line + "\n";
    }
  };
  std::istringstream in(diff);
  std::string line, old_header;  // a `--- ` line is a file header only when `+++ ` follows it
  while (std::getline(in, line)) {
    if (!old_header.empty()) {
      if (starts_with(line, "+++ ")) {
        flush();
        out += "--- " + line.substr(4) + "\n+++ " + old_header.substr(4) + "\n";
        old_header.clear();
        continue;
      }
      take(old_header);
      old_header.clear();
    }
    if (starts_with(line, "--- ")) old_header = line;
    else take(line);
  }
  if (!old_header.empty()) take(old_header);
  flush();
  if (!diff.empty() && diff.back() != '\n' && !out.empty()) out.pop_back();
  return out;
}

ExperienceEntry as_experience(const aoc::bank::Entry& e) {
  ExperienceEntry x;
  x.title = e.title;
  x.description = e.description;
  x.bottleneck = e.bottleneck;
  const bool mined = e.kind == aoc::bank::kPositive || e.kind == aoc::bank::kNegative;
  x.diff = mined ? reverse_unified_diff(e.diff) : e.diff;
  if (e.geomean && !e.cases.empty()) {
    std::ostringstream os;
    os << std::fixed << std::setprecision(3) << *e.geomean << "x geomean over " << e.cases.size() << " cases of " << e.op
       << " when present (removing it: " << e.kind << " entry)";
    x.effect = os.str();
  }
  return x;
}

std::vector<ExperienceEntry> top_experiences(const std::vector<aoc::bank::Ranked>& ranked, size_t k) {
  std::vector<ExperienceEntry> out;
  for (size_t i = 0; i < ranked.size() && i < k; ++i) out.push_back(as_experience(ranked[i].entry));
  return out;
}

}  // namespace aoc::llm
