#include "llm/attempt_context.h"

#include <cmath>
#include <cstdio>

namespace aoc::llm {

namespace {

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.4g", v);
  return buf;
}

// One absolute path token (possibly with :line:col after it) in candidate-relative form.
std::string scrub_token(const std::string& tok) {
  for (const char* marker : {"/op_kernel/", "/op_host/", "/include/ascendc/"}) {
    const size_t at = tok.rfind(marker);
    if (at == std::string::npos) continue;
    const std::string m = marker;
    if (m == "/include/ascendc/") return "ascendc/" + tok.substr(at + m.size());
    return tok.substr(at + 1);
  }
  const size_t slash = tok.rfind('/');
  return slash == std::string::npos ? tok : tok.substr(slash + 1);
}

}  // namespace

std::string scrub_paths(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  auto boundary = [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '(' || c == '\'' || c == '"' || c == '`' || c == '=' ||
           c == '[' || c == ',';
  };
  while (i < text.size()) {
    const bool starts = text[i] == '/' && (i == 0 || boundary(text[i - 1])) && i + 1 < text.size() &&
                        text[i + 1] != ' ' && text[i + 1] != '/';
    if (!starts) {
      out += text[i++];
      continue;
    }
    size_t j = i;
    while (j < text.size() && !boundary(text[j]) && text[j] != ')' && text[j] != ']') ++j;
    out += scrub_token(text.substr(i, j - i));
    i = j;
  }
  return out;
}

std::optional<ProfileSummary> profile_from_report(const aoc::eval::CandidateReport& r) {
  ProfileSummary p;
  p.soc = r.soc;
  double log_sum = 0, log_ratio = 0;
  size_t with_ratio = 0;
  for (const auto& c : r.cases) {
    if (!c.sim_us || *c.sim_us <= 0) continue;
    CaseProfile cp;
    cp.name = c.name;
    cp.dtype = c.dtype;
    cp.shapes = c.shapes;
    cp.task_us = *c.sim_us;
    cp.t_hw_us = c.t_hw_us;
    cp.t_hw_bound = c.bound;
    cp.bound_pipe = c.bound_pipe;
    cp.pipes = c.profile;
    log_sum += std::log(cp.task_us);
    if (cp.t_hw_us && *cp.t_hw_us > 0) {
      log_ratio += std::log(cp.task_us / *cp.t_hw_us);
      ++with_ratio;
    }
    p.cases.push_back(std::move(cp));
  }
  if (p.cases.empty()) return std::nullopt;
  p.geomean_task_us = std::exp(log_sum / static_cast<double>(p.cases.size()));
  if (with_ratio > 0) p.geomean_ratio_to_t_hw = std::exp(log_ratio / static_cast<double>(with_ratio));
  return p;
}

AttemptFailure failure_from_report(const aoc::eval::CandidateReport& r, size_t max_details) {
  using aoc::eval::Verdict;
  AttemptFailure f;
  f.verdict = aoc::eval::to_string(r.verdict);
  f.summary = scrub_paths(r.message);
  auto add = [&](const std::string& line) {
    if (f.details.size() < max_details) f.details.push_back(scrub_paths(line));
  };
  for (const auto& d : r.diagnostics) add(aoc::build::to_string(d));
  for (const auto& x : r.findings) add(x.message());
  for (const auto& c : r.cases) {
    if (c.verdict == Verdict::Ok) continue;
    std::string head = "case " + c.name + " (" + c.dtype + ", " + c.shapes + "): " + aoc::eval::to_string(c.verdict);
    if (!c.message.empty()) head += ": " + c.message;
    if (!c.error_file.empty()) head += " [at " + c.error_file + ":" + std::to_string(c.error_line) + "]";
    add(head);
    if (c.verdict != Verdict::WrongResult && c.verdict != Verdict::Suspicious) continue;
    for (const auto& o : c.outputs) {
      if (o.cmp.pass) continue;
      std::string s = "  output " + o.name + ": max_rel " + num(o.cmp.max_rel) + ", mean_rel " + num(o.cmp.mean_rel) +
                      " (tau " + num(o.cmp.tau) + ")";
      if (o.cmp.worst_index >= 0)
        s += ", worst at flat index " + std::to_string(o.cmp.worst_index) + ": got " + num(o.cmp.worst_actual) +
             ", expected " + num(o.cmp.worst_expected);
      if (o.cmp.nan_mismatch) s += ", " + std::to_string(o.cmp.nan_mismatch) + " NaN mismatches";
      if (o.cmp.inf_mismatch) s += ", " + std::to_string(o.cmp.inf_mismatch) + " infinity mismatches";
      if (o.cmp.poisoned) s += ", " + std::to_string(o.cmp.poisoned) + " elements never written";
      if (!o.cmp.reason.empty()) s += "; " + o.cmp.reason;
      add(s);
    }
  }
  return f;
}

AttemptFailure failure_from_unusable(const Unusable& u) {
  AttemptFailure f;
  f.verdict = "unusable_answer";
  f.summary = u.code + ": " + u.message;
  return f;
}

}  // namespace aoc::llm
