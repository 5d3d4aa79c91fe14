#include "rewrite/motif_states.h"

#include "rewrite/rewrite_tool.h"

namespace aoc::rewrite {
namespace fs = std::filesystem;

namespace {
// Paths inside the candidate are shown relative to it (op_kernel/add.cpp).
std::string shown(const fs::path& dir, const std::string& file) {
  std::error_code ec;
  const fs::path base = fs::weakly_canonical(dir, ec);
  const fs::path rel = fs::path(file).lexically_relative(base);
  if (!rel.empty() && rel.native().rfind("..", 0) != 0) return rel.string();
  return file;
}
}  // namespace

std::vector<MotifState> detect_motifs(const aoc::eval::Candidate& c, const std::string& only_motif) {
  const ToolAnswer a = run_rewrite_tool(c, c.sources, "detect", only_motif, false);
  std::vector<MotifState> out;
  for (const auto& m : a.body.at("motifs")) {
    MotifState s;
    s.motif = m.value("motif", "");
    s.summary = m.value("summary", "");
    const std::string word = m.value("state", "");
    const std::optional<State> state = parse_state(word);
    if (!state) throw RewriteError("aoc-rewrite answered motif " + s.motif + " with an unknown state '" + word + "'");
    s.state = *state;
    s.reason = m.value("reason", "");
    for (const auto& l : m.value("locations", nlohmann::json::array()))
      s.places.push_back({shown(c.dir, l.value("file", "")), l.value("line", 0u)});
    out.push_back(std::move(s));
  }
  return out;
}

nlohmann::json to_json(const std::vector<MotifState>& states) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& s : states) {
    nlohmann::json places = nlohmann::json::array();
    for (const auto& p : s.places) places.push_back({{"file", p.file}, {"line", p.line}});
    a.push_back({{"motif", s.motif}, {"summary", s.summary}, {"state", s.state}, {"reason", s.reason}, {"places", places}});
  }
  return a;
}

}  // namespace aoc::rewrite
