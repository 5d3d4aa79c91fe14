#include "cli/report_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <sstream>

#include "cli/number_format.h"

namespace aoc::cli {
namespace {

// What a case's kernel printed, under its line of the table: the first kMaxPrintedLines lines,
// then how many more there are (--json has them all).
void print_kernel_text(std::ostream& os, const std::string& printed) {
  constexpr size_t kMaxPrintedLines = 20;
  size_t lines = 0, at = 0;
  while (at < printed.size()) {
    const size_t end = std::min(printed.find('\n', at), printed.size());
    if (lines < kMaxPrintedLines) os << "      printed: " << printed.substr(at, end - at) << "\n";
    ++lines;
    at = end + 1;
  }
  if (lines > kMaxPrintedLines) os << "      printed: ... " << lines - kMaxPrintedLines << " more lines (--json has them)\n";
}

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
const aoc::package::OutputCheck* worst_output(const aoc::eval::CaseResult& c) {
  const aoc::package::OutputCheck* w = nullptr;
  for (const auto& o : c.outputs)
    if (w == nullptr || o.cmp.max_rel > w->cmp.max_rel || !o.cmp.pass) w = &o;
  return w;
}

nlohmann::json number_or_string(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

// "ok~" marks a pass that needed the fallback screen (errors confined to the
// small-value / cancellation regions).
std::string verdict_label(const aoc::eval::CaseResult& c) {
  std::string v = aoc::eval::to_string(c.verdict);
  for (const auto& o : c.outputs)
    if (o.cmp.fallback_used && c.verdict == aoc::eval::Verdict::Ok) return v + "~";
  return v;
}

// What stopped a candidate before any case ran (its folder, the SoC, the golden, a refused
// source), "" when cases ran or the build failed (reported as build failures).
std::string setup_error(const aoc::eval::CandidateReport& r) {
  if (!r.cases.empty() || r.verdict == aoc::eval::Verdict::Ok || r.verdict == aoc::eval::Verdict::CompileError)
    return "";
  return r.message;
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

// The per-pipe columns of the profile table: AIV pipes (the run path launches AIV blocks).
constexpr const char* kPipeColumns[] = {"vec", "scalar", "mte2", "mte3"};

}  // namespace

nlohmann::json case_profile_json(const aoc::eval::CaseResult& c) {
  if (!c.sim_profile) return nullptr;
  const aoc::sim::Profile& p = *c.sim_profile;
  const MinAvgMax t = core_times(p);
  nlohmann::json j;
  j["task_duration_us"] = p.task_duration_us;
  j["block_dim"] = p.block_dim;
  j["core_time_us"] = {{"min", t.min}, {"avg", t.avg}, {"max", t.max}};
  j["fields"] = p.fields;
  j["bound_pipe"] = p.bound_pipe;
  j["api_records"] = c.api_records;
  j["kernel_scalar_blocks"] = c.kernel_blocks;
  j["api_blocks"] = c.api_blocks;
  if (c.t_hw_us) {
    j["t_hw_us"] = *c.t_hw_us;
    j["t_hw_bound"] = c.bound;
    j["t_hw_unit_us"] = c.t_hw_unit_us;
  }
  return j;
}

void print_profile_table(std::ostream& os, const aoc::eval::CandidateReport& r) {
  bool any = false;
  for (const auto& c : r.cases) any = any || c.sim_profile.has_value();
  if (!any) return;
  os << "  " << std::left << std::setw(26) << "profile (us, ratio)" << std::setw(12) << "task"
     << std::setw(26) << "core min/avg/max";
  for (const char* pipe : kPipeColumns) os << std::setw(15) << (std::string("aiv_") + pipe);
  os << std::setw(15) << "bound" << "T_HW\n";
  for (const auto& c : r.cases) {
    if (!c.sim_profile) continue;
    const aoc::sim::Profile& p = *c.sim_profile;
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
    if (c.t_hw_us) os << fixed(*c.t_hw_us) << " (" << c.bound << ")";
    else os << "-";
    os << "\n";
  }
}

void print_report_table(std::ostream& os, const aoc::eval::CandidateReport& r) {
  os << (r.op.empty() ? "?" : r.op) << "  (" << r.candidate_dir << ")  seed " << hex(r.seed);
  if (!r.soc.empty()) os << "  soc " << r.soc;
  if (!r.isolation.empty()) os << "  isolation: " << r.isolation;
  // Shown only when the compiler could not be put in namespaces: the default needs no words.
  if (!r.build_isolation.empty() && r.build_isolation != "namespaces") os << "  compiler isolation: " << r.build_isolation;
  os << "\n";
  if (r.verdict == aoc::eval::Verdict::CompileError) {
    os << "  BUILD FAILED: " << r.message << "\n";
    int shown = 0;
    for (const auto& d : r.diagnostics) {
      if (shown++ == 10) { os << "    ...\n"; break; }
      os << "    " << aoc::build::to_string(d) << "\n";
    }
  }
  if (const std::string e = setup_error(r); !e.empty()) {
    os << "  " << aoc::eval::to_string(r.verdict) << ": " << e << "\n";
    for (size_t i = 1; i < r.findings.size(); ++i) os << "    " << r.findings[i].message() << "\n";
  }
  if (r.cases.empty()) return;
  os << "  " << std::left << std::setw(26) << "case" << std::setw(9) << "dtype" << std::setw(30) << "shapes"
     << std::setw(15) << "verdict" << std::setw(10) << "max_rel" << std::setw(10) << "mean_rel" << std::setw(14)
     << "worst" << std::setw(7) << "blocks" << "sim_us\n";
  for (const auto& c : r.cases) {
    const auto* w = worst_output(c);
    std::string shapes = c.shapes.size() > 28 ? c.shapes.substr(0, 25) + "..." : c.shapes;
    os << "  " << std::left << std::setw(26) << c.name << std::setw(9) << c.dtype << std::setw(30) << shapes
       << std::setw(15) << verdict_label(c) << std::setw(10) << (w ? sci(w->cmp.max_rel) : "-")
       << std::setw(10) << (w ? sci(w->cmp.mean_rel) : "-") << std::setw(14)
       << (w ? aoc::package::index_to_string(w->cmp.worst_index, w->shape) : "-") << std::setw(7)
       << (c.block_dim ? std::to_string(c.block_dim) : "-") << (c.sim_us ? fixed(*c.sim_us) : "-") << "\n";
    if (c.verdict != aoc::eval::Verdict::Ok) {
      os << "      " << c.message;
      if (!c.error_file.empty()) os << " (at " << c.error_file << ":" << c.error_line << ")";
      os << "\n";
    }
    for (const auto& w : c.warnings) os << "      warning: " << w << "\n";
    print_kernel_text(os, c.printed);
  }
  size_t ok = 0;
  bool any_fallback = false;
  for (const auto& c : r.cases) {
    ok += c.verdict == aoc::eval::Verdict::Ok;
    any_fallback = any_fallback || verdict_label(c).back() == '~';
  }
  os << "  " << ok << "/" << r.cases.size() << " cases ok"
     << (any_fallback ? " (ok~ = passed the fallback precision screen)" : "") << "\n";
}

nlohmann::json report_to_json(const aoc::eval::CandidateReport& r) {
  nlohmann::json j;
  j["op"] = r.op;
  j["dir"] = r.candidate_dir;
  j["package"] = r.package_dir;
  j["seed"] = r.seed;
  j["soc"] = r.soc;
  j["verdict"] = aoc::eval::to_string(r.verdict);
  j["message"] = r.message;
  j["passed"] = r.verdict == aoc::eval::Verdict::Ok;
  j["isolation"] = r.isolation;
  j["build_isolation"] = r.build_isolation;
  j["seconds"] = r.seconds;
  j["setup_error"] = setup_error(r);
  j["build_failures"] = nlohmann::json::array();
  if (r.verdict == aoc::eval::Verdict::CompileError) {
    nlohmann::json bj;
    bj["what"] = r.message;
    bj["diagnostics"] = nlohmann::json::array();
    for (const auto& d : r.diagnostics)
      bj["diagnostics"].push_back(
          {{"file", d.file}, {"line", d.line}, {"column", d.column}, {"severity", d.severity}, {"message", d.message}});
    j["build_failures"].push_back(bj);
  }
  j["findings"] = nlohmann::json::array();
  for (const auto& f : r.findings)
    j["findings"].push_back(
        {{"file", f.file}, {"line", f.line}, {"column", f.column}, {"rule", f.rule}, {"text", f.text}, {"advice", f.advice}});
  j["cases"] = nlohmann::json::array();
  for (const auto& c : r.cases) {
    nlohmann::json cj;
    cj["name"] = c.name;
    cj["dtype"] = c.dtype;
    cj["shapes"] = c.shapes;
    cj["verdict"] = aoc::eval::to_string(c.verdict);
    cj["message"] = c.message;
    if (!c.error_file.empty()) cj["error_location"] = {{"file", c.error_file}, {"line", c.error_line}};
    cj["block_dim"] = c.block_dim;
    cj["tiling_key"] = c.tiling_key;
    cj["sim_us"] = c.sim_us ? nlohmann::json(*c.sim_us) : nlohmann::json(nullptr);
    cj["t_hw_us"] = c.t_hw_us ? nlohmann::json(*c.t_hw_us) : nlohmann::json(nullptr);
    cj["profile"] = case_profile_json(c);
    cj["hazards"] = nlohmann::json::array();
    for (const auto& h : c.hazards) cj["hazards"].push_back({{"kind", aoc::sim::hazard_kind_name(h.kind)},
                                                              {"message", h.message()},
                                                              {"first", call_site_json(h.first)},
                                                              {"second", call_site_json(h.second)}});
    cj["warnings"] = c.warnings;
    cj["printed"] = c.printed;
    cj["wall_ms"] = c.wall_ms;
    cj["phase_ms"] = c.phase_ms;
    cj["outputs"] = nlohmann::json::array();
    for (const auto& o : c.outputs) {
      cj["outputs"].push_back({{"name", o.name},
                               {"pass", o.cmp.pass},
                               {"max_rel", o.cmp.max_rel},
                               {"mean_rel", o.cmp.mean_rel},
                               {"tau", o.cmp.tau},
                               {"worst_index", o.cmp.worst_index},
                               {"worst_position", aoc::package::index_to_string(o.cmp.worst_index, o.shape)},
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
                               {"ill_conditioned_elements", o.cmp.illcond_elements},
                               {"ill_conditioned_errors", o.cmp.illcond_errors},
                               {"reason", o.cmp.reason}});
    }
    j["cases"].push_back(cj);
  }
  return j;
}

}  // namespace aoc::cli
