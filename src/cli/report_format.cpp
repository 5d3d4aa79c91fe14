#include "cli/report_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <sstream>

namespace aoc::cli {
namespace {

std::string sci(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.2e", v);
  return buf;
}

std::string hex(uint64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}

// The output with the largest error stands for the case in the table.
const aoc::op::OutputCheck* worst_output(const aoc::op::CaseOutcome& c) {
  const aoc::op::OutputCheck* w = nullptr;
  for (const auto& o : c.outputs)
    if (w == nullptr || o.cmp.max_rel > w->cmp.max_rel || !o.cmp.pass) w = &o;
  return w;
}

nlohmann::json number_or_string(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

// "pass~" marks a pass that needed the fallback screen (errors confined to the
// small-value / cancellation regions).
std::string verdict_label(const aoc::op::CaseOutcome& c) {
  std::string v = aoc::op::to_string(c.verdict);
  for (const auto& o : c.outputs)
    if (o.cmp.fallback_used && c.verdict == aoc::op::Verdict::Pass) return v + "~";
  return v;
}

nlohmann::json call_site_json(const aoc::sim::CallSite& s) {
  return {{"file", s.file}, {"line", s.line}, {"op", s.op}, {"write", s.write}};
}

struct MinAvgMax {
  double min = 0, avg = 0, max = 0;
};

MinAvgMax core_times(const aoc::sim::Profile& p) {
  MinAvgMax m;
  if (p.blocks.empty()) return m;
  m.min = m.max = p.blocks.front().time_us;
  for (const auto& b : p.blocks) {
    m.min = std::min(m.min, b.time_us);
    m.max = std::max(m.max, b.time_us);
    m.avg += b.time_us / double(p.blocks.size());
  }
  return m;
}

double field(const aoc::sim::Profile& p, const std::string& name) {
  auto it = p.fields.find(name);
  return it == p.fields.end() ? 0.0 : it->second;
}

std::string fixed(double v, int digits = 2) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.*f", digits, v);
  return buf;
}

// The per-pipe columns of the profile table: AIV pipes (the run path launches AIV blocks).
constexpr const char* kPipeColumns[] = {"vec", "scalar", "mte2", "mte3"};

}  // namespace

nlohmann::json case_profile_json(const aoc::op::CaseOutcome& c) {
  if (!c.profile) return nullptr;
  const aoc::sim::Profile& p = *c.profile;
  const MinAvgMax t = core_times(p);
  nlohmann::json j;
  j["task_duration_us"] = p.task_duration_us;
  j["block_dim"] = p.block_dim;
  j["core_time_us"] = {{"min", t.min}, {"avg", t.avg}, {"max", t.max}};
  j["fields"] = p.fields;
  j["bound_pipe"] = p.bound_pipe;
  j["api_records"] = c.api_records;
  j["kernel_scalar_blocks"] = c.kernel_blocks;
  if (c.hw_limit) {
    j["t_hw_us"] = c.hw_limit->time_us;
    j["t_hw_bound"] = c.hw_limit->bound;
    j["t_hw_unit_us"] = c.hw_limit->unit_us;
  }
  return j;
}

void print_profile_table(std::ostream& os, const aoc::eval::OpReport& r) {
  bool any = false;
  for (const auto& c : r.cases) any = any || c.profile.has_value();
  if (!any) return;
  os << "  " << std::left << std::setw(26) << "profile (us, ratio)" << std::setw(12) << "task"
     << std::setw(26) << "core min/avg/max";
  for (const char* pipe : kPipeColumns) os << std::setw(15) << (std::string("aiv_") + pipe);
  os << std::setw(15) << "bound" << "T_HW\n";
  for (const auto& c : r.cases) {
    if (!c.profile) continue;
    const aoc::sim::Profile& p = *c.profile;
    const MinAvgMax t = core_times(p);
    os << "  " << std::left << std::setw(26) << c.name << std::setw(12) << (fixed(p.task_duration_us) + " ")
       << std::setw(26) << (fixed(t.min) + "/" + fixed(t.avg) + "/" + fixed(t.max) + " ");
    for (const char* pipe : kPipeColumns) {
      const std::string base = std::string("aiv_") + pipe;
      os << std::setw(15) << (fixed(field(p, base + "_time")) + " " + fixed(field(p, base + "_ratio")) + " ");
    }
    std::string bound = p.bound_pipe;
    if (bound.rfind("aiv_", 0) == 0) bound = bound.substr(4);
    if (bound.size() > 5 && bound.substr(bound.size() - 5) == "_time") bound.resize(bound.size() - 5);
    os << std::setw(15) << bound;
    if (c.hw_limit) os << fixed(c.hw_limit->time_us) << " (" << c.hw_limit->bound << ")";
    else os << "-";
    os << "\n";
  }
}

void print_report_table(std::ostream& os, const aoc::eval::OpReport& r) {
  os << r.op << "  (" << r.dir << ")  seed " << hex(r.seed);
  if (!r.soc.empty()) os << "  soc " << r.soc;
  os << "  builds " << r.builds << " (" << r.build_cache_hits << " cached)\n";
  for (const auto& b : r.build_failures) {
    os << "  BUILD FAILED: " << b.what << "\n";
    int shown = 0;
    for (const auto& d : aoc::eval::errors_only(b.result.diagnostics)) {
      if (shown++ == 10) { os << "    ...\n"; break; }
      os << "    " << aoc::eval::to_string(d) << "\n";
    }
    if (shown == 0) os << "    " << b.result.first_error() << "\n";
  }
  if (!r.setup_error.empty()) os << "  ERROR: " << r.setup_error << "\n";
  if (r.cases.empty()) return;
  os << "  " << std::left << std::setw(26) << "case" << std::setw(9) << "dtype" << std::setw(30) << "shapes"
     << std::setw(8) << "verdict" << std::setw(10) << "max_rel" << std::setw(10) << "mean_rel" << std::setw(14)
     << "worst" << std::setw(7) << "blocks" << "sim_us\n";
  for (const auto& c : r.cases) {
    const auto* w = worst_output(c);
    std::string shapes = c.shapes.size() > 28 ? c.shapes.substr(0, 25) + "..." : c.shapes;
    os << "  " << std::left << std::setw(26) << c.name << std::setw(9) << c.dtype << std::setw(30) << shapes
       << std::setw(8) << verdict_label(c) << std::setw(10) << (w ? sci(w->cmp.max_rel) : "-")
       << std::setw(10) << (w ? sci(w->cmp.mean_rel) : "-") << std::setw(14)
       << (w ? aoc::op::index_to_string(w->cmp.worst_index, w->shape) : "-") << std::setw(7)
       << (c.block_dim ? std::to_string(c.block_dim) : "-");
    if (c.sim_us) {
      char buf[32];
      std::snprintf(buf, sizeof(buf), "%.2f", *c.sim_us);
      os << buf;
    } else {
      os << "-";
    }
    os << "\n";
    if (c.verdict != aoc::op::Verdict::Pass) os << "      " << c.message << "\n";
    if (!c.sim_error.empty()) os << "      simulator: " << c.sim_error << "\n";
    for (const auto& w : c.warnings) os << "      warning: " << w << "\n";
  }
  bool any_fallback = false;
  for (const auto& c : r.cases) any_fallback = any_fallback || verdict_label(c).back() == '~';
  os << "  " << r.count(aoc::op::Verdict::Pass) << "/" << r.cases.size() << " cases passed"
     << (any_fallback ? " (pass~ = passed the fallback precision screen)" : "") << "\n";
}

nlohmann::json report_to_json(const aoc::eval::OpReport& r) {
  nlohmann::json j;
  j["op"] = r.op;
  j["dir"] = r.dir;
  j["seed"] = r.seed;
  j["soc"] = r.soc;
  j["passed"] = r.passed();
  j["builds"] = r.builds;
  j["build_cache_hits"] = r.build_cache_hits;
  j["setup_error"] = r.setup_error;
  j["build_failures"] = nlohmann::json::array();
  for (const auto& b : r.build_failures) {
    nlohmann::json bj;
    bj["what"] = b.what;
    bj["diagnostics"] = nlohmann::json::array();
    for (const auto& d : b.result.diagnostics)
      bj["diagnostics"].push_back(
          {{"file", d.file}, {"line", d.line}, {"column", d.column}, {"severity", d.severity}, {"message", d.message}});
    j["build_failures"].push_back(bj);
  }
  j["cases"] = nlohmann::json::array();
  for (const auto& c : r.cases) {
    nlohmann::json cj;
    cj["name"] = c.name;
    cj["dtype"] = c.dtype;
    cj["shapes"] = c.shapes;
    cj["verdict"] = aoc::op::to_string(c.verdict);
    cj["message"] = c.message;
    if (!c.error_file.empty()) cj["error_location"] = {{"file", c.error_file}, {"line", c.error_line}};
    cj["block_dim"] = c.block_dim;
    cj["tiling_key"] = c.tiling_key;
    cj["sim_us"] = c.sim_us ? nlohmann::json(*c.sim_us) : nlohmann::json(nullptr);
    cj["profile"] = case_profile_json(c);
    cj["hazards"] = nlohmann::json::array();
    for (const auto& h : c.hazards) cj["hazards"].push_back({{"kind", aoc::sim::hazard_kind_name(h.kind)},
                                                              {"message", h.message()},
                                                              {"first", call_site_json(h.first)},
                                                              {"second", call_site_json(h.second)}});
    if (!c.sim_error.empty()) cj["sim_error"] = c.sim_error;
    cj["warnings"] = c.warnings;
    cj["wall_ms"] = c.wall_ms;
    cj["outputs"] = nlohmann::json::array();
    for (const auto& o : c.outputs) {
      cj["outputs"].push_back({{"name", o.name},
                               {"pass", o.cmp.pass},
                               {"max_rel", o.cmp.max_rel},
                               {"mean_rel", o.cmp.mean_rel},
                               {"tau", o.cmp.tau},
                               {"worst_index", o.cmp.worst_index},
                               {"worst_position", aoc::op::index_to_string(o.cmp.worst_index, o.shape)},
                               {"worst_actual", number_or_string(o.cmp.worst_actual)},
                               {"worst_expected", number_or_string(o.cmp.worst_expected)},
                               {"nan_mismatch", o.cmp.nan_mismatch},
                               {"inf_mismatch", o.cmp.inf_mismatch},
                               {"unwritten", o.cmp.poisoned},
                               {"fallback_used", o.cmp.fallback_used},
                               {"relaxed", o.cmp.relaxed},
                               {"small_region_errors", o.cmp.small_errors},
                               {"small_region_cpu_errors", o.cmp.small_cpu_errors},
                               {"cancel_region_errors", o.cmp.cancel_errors},
                               {"cancel_region_cpu_errors", o.cmp.cancel_cpu_errors},
                               {"reason", o.cmp.reason}});
    }
    j["cases"].push_back(cj);
  }
  return j;
}

}  // namespace aoc::cli
