#include "pin_config.h"

#include <nlohmann/json.hpp>

#include <set>
#include <stdexcept>

#include "motifs/motif_util.h"

namespace aoc::rewrite {

PinnedConfig parse_pinned_config(const std::string& json_text) {
  const auto j = nlohmann::json::parse(json_text, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    throw std::invalid_argument("--config is not a JSON object: " + json_text.substr(0, 200));
  PinnedConfig c;
  try {
    if (j.contains("knobs")) c.knobs = j.at("knobs").get<std::map<std::string, int64_t>>();
    c.cores = j.value("cores", uint32_t(0));
    c.ub_bytes = j.value("ub_bytes", uint64_t(0));
    c.coupled = j.value("coupled", false);
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("--config: ") + e.what() +
                                " (expected {\"knobs\": {name: integer}, \"cores\": N, \"ub_bytes\": N, \"coupled\": bool})");
  }
  for (const auto& [k, v] : j.items())
    if (k != "knobs" && k != "cores" && k != "ub_bytes" && k != "coupled")
      throw std::invalid_argument("--config has an unknown key \"" + k + "\" (knobs, cores, ub_bytes, coupled)");
  return c;
}

namespace {

bool is_platform_call(const Call& c) { return c.object_type == "PlatformAscendC"; }

// The name a tuning::Knob / KnobRange call declares: its first argument when that is a plain
// string literal, else empty.
std::string knob_name(const Call& c) {
  if (c.ns != "tuning" || (c.callee != "Knob" && c.callee != "KnobRange") || c.args.size() < 2) return "";
  const std::string t = trim(c.args[0].text);
  if (t.size() < 2 || t.front() != '"' || t.back() != '"' || t.find('\\') != std::string::npos) return "";
  return t.substr(1, t.size() - 2);
}

// An edit that puts `#include <algorithm>` (for std::min) before the file's first include,
// unless the file includes it already.
bool needs_algorithm(const KernelModel& m, const std::string& file) {
  const auto it = m.files.find(file);
  return it != m.files.end() && it->second.find("#include <algorithm>") == std::string::npos;
}

Edit include_algorithm(const KernelModel& m, const std::string& file) {
  const std::string& s = m.files.at(file);
  size_t at = 0;
  for (size_t p = s.find("#include"); p != std::string::npos; p = s.find("#include", p + 1))
    if (p == 0 || s[p - 1] == '\n') {
      at = p;
      break;
    }
  return Edit{file, uint32_t(at), uint32_t(at), "#include <algorithm>\n"};
}

}  // namespace

Transform pin_config(const KernelModel& m, const PinnedConfig& cfg) {
  Transform t;
  std::set<std::string> uses_min;  // files given a std::min

  // Knobs: the chosen value becomes the default of every call declaring the knob.
  std::set<std::string> pinned;
  for (const auto& c : m.calls) {
    const std::string name = knob_name(c);
    const auto it = cfg.knobs.find(name);
    if (name.empty() || it == cfg.knobs.end()) continue;
    if (!c.editable || !c.args[1].range.valid())
      return refuse("knob " + name + " is declared inside a macro at " + file_line(c.range) + "; its default cannot be edited");
    t.edits.push_back(replace(c.args[1].range, std::to_string(it->second)));
    t.ranges.push_back(c.range);
    pinned.insert(name);
  }
  for (const auto& [name, value] : cfg.knobs)
    if (!pinned.count(name))
      return refuse("no tuning::Knob or KnobRange call with the literal name \"" + name + "\" in the sources");

  // Core count: what GetCoreNum / GetCoreNumAiv (and on coupled parts GetCoreNumAic) report.
  if (cfg.cores > 0) {
    size_t reads = 0;
    for (const auto& c : m.calls) {
      const bool counts = c.callee == "GetCoreNum" || c.callee == "GetCoreNumAiv" || (cfg.coupled && c.callee == "GetCoreNumAic");
      if (!counts || !is_platform_call(c) || !c.args.empty()) continue;
      if (!c.editable) return refuse("the core count is read inside a macro at " + file_line(c.range));
      t.edits.push_back(replace(c.range, "std::min<uint32_t>(" + m.text(c.range) + ", " + std::to_string(cfg.cores) + "U)"));
      t.ranges.push_back(c.range);
      uses_min.insert(c.range.file);
      ++reads;
    }
    if (reads == 0) return refuse("the configuration sets " + std::to_string(cfg.cores) + " cores but no PlatformAscendC core-count read is in the sources");
  }

  // UB budget: what GetCoreMemSize(CoreMemType::UB, size) stores in `size`.
  if (cfg.ub_bytes > 0) {
    for (const auto& c : m.calls)
      if (c.callee == "ReserveLocalMemory" && is_platform_call(c))
        return refuse("the tiling reserves part of UB at " + file_line(c.range) +
                      " (ReserveLocalMemory), so a UB budget cannot be written as a cap on what it reads");
    size_t reads = 0;
    for (const auto& c : m.calls) {
      if (c.callee != "GetCoreMemSize" || !is_platform_call(c) || c.args.size() != 2) continue;
      const std::string kind = trim(c.args[0].text);
      if (kind.size() < 2 || kind.compare(kind.size() - 2, 2, "UB") != 0) continue;
      if (!c.editable) return refuse("the UB size is read inside a macro at " + file_line(c.range));
      const std::string size = trim(c.args[1].text);
      const std::string bare = size.rfind("this->", 0) == 0 ? size.substr(6) : size;
      if (bare.empty() || argument_variable(bare) != bare)
        return refuse("the UB size read at " + file_line(c.range) + " stores into `" + size + "`, not a variable the cap can name");
      t.edits.push_back(replace(c.range, "(" + m.text(c.range) + ", " + size + " = std::min<uint64_t>(" + size + ", " +
                                             std::to_string(cfg.ub_bytes) + "UL))"));
      t.ranges.push_back(c.range);
      uses_min.insert(c.range.file);
      ++reads;
    }
    if (reads == 0)
      return refuse("the configuration sets a UB budget of " + std::to_string(cfg.ub_bytes) +
                    " B but no PlatformAscendC GetCoreMemSize(CoreMemType::UB, ...) is in the sources");
  }
  for (const auto& f : uses_min)
    if (needs_algorithm(m, f)) t.edits.push_back(include_algorithm(m, f));
  if (t.edits.empty()) return refuse("the configuration is empty: the sources already behave as it asks");
  return t;
}

}  // namespace aoc::rewrite
