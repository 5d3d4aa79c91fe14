#include "bench/html_report.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <set>
#include <sstream>

namespace aoc::bench {

namespace {

const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};

std::string esc(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '<') o += "&lt;";
    else if (c == '>') o += "&gt;";
    else if (c == '&') o += "&amp;";
    else if (c == '"') o += "&quot;";
    else o += c;
  }
  return o;
}

std::string num(double v, int digits = 3) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(digits) << v;
  return os.str();
}

// Best-so-far speedup against evaluations spent, one line per method, at budget `b`.
std::string progress_svg(const BenchSummary& s, size_t b) {
  const double W = 560, H = 300, L = 50, R = 150, T = 20, B = 40;
  double ymax = 1.05;
  for (const auto& f : s.figures)
    if (f.budget == b)
      for (double v : f.progress) ymax = std::max(ymax, v * 1.05);
  const auto x = [&](double i) { return L + (W - L - R) * (i - 1) / std::max(1.0, double(b) - 1); };
  const auto y = [&](double v) { return T + (H - T - B) * (1 - (v - 1.0) / (ymax - 1.0)); };
  std::ostringstream os;
  os << "<svg class=\"plot progress\" width=\"" << W << "\" height=\"" << H << "\" xmlns=\"http://www.w3.org/2000/svg\">"
     << "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>"
     << "<line x1=\"" << L << "\" y1=\"" << H - B << "\" x2=\"" << W - R << "\" y2=\"" << H - B << "\" stroke=\"#000\"/>"
     << "<line x1=\"" << L << "\" y1=\"" << T << "\" x2=\"" << L << "\" y2=\"" << H - B << "\" stroke=\"#000\"/>"
     << "<text x=\"" << (W - R + L) / 2 << "\" y=\"" << H - 8 << "\" text-anchor=\"middle\" font-size=\"12\">evaluations spent (budget " << b << ")</text>"
     << "<text x=\"" << L - 6 << "\" y=\"" << y(1.0) << "\" text-anchor=\"end\" font-size=\"11\">1.0</text>"
     << "<text x=\"" << L - 6 << "\" y=\"" << y(ymax) + 10 << "\" text-anchor=\"end\" font-size=\"11\">" << num(ymax, 2) << "</text>";
  size_t k = 0;
  for (const auto& f : s.figures) {
    if (f.budget != b) continue;
    const char* c = kColors[k % 8];
    os << "<polyline fill=\"none\" stroke-width=\"2\" stroke=\"" << c << "\" points=\"";
    for (size_t i = 0; i < f.progress.size(); ++i) os << x(double(i + 1)) << "," << y(f.progress[i]) << " ";
    os << "\"/><text x=\"" << W - R + 8 << "\" y=\"" << T + 16 * (k + 1) << "\" fill=\"" << c << "\" font-size=\"12\">"
       << esc(f.method) << " " << num(f.progress.empty() ? 1.0 : f.progress.back()) << "x</text>";
    ++k;
  }
  os << "</svg>";
  return os.str();
}

// Room for right-aligned labels of up to `chars` characters at `font_px` (sans-serif averages a
// little over half an em per character), so a long operator name is not cut at the left edge.
double label_room(size_t chars, double font_px) { return 16 + 0.62 * font_px * static_cast<double>(chars); }

// Mean speedup over seeds at the largest budget, grouped by operator.
std::string per_op_svg(const BenchSummary& s) {
  size_t longest = 0;
  for (const auto& [op, by] : s.per_op) longest = std::max(longest, op.size());
  const double bar = 14, gap = 10, L = std::max(150.0, label_room(longest, 12)), W = L + 490;
  const double H = 30 + s.per_op.size() * (s.methods.size() * bar + gap);
  double xmax = 1.1;
  for (const auto& [op, by] : s.per_op)
    for (const auto& [m, v] : by) xmax = std::max(xmax, v * 1.05);
  std::ostringstream os;
  os << "<svg class=\"plot per-op\" width=\"" << W << "\" height=\"" << H << "\" xmlns=\"http://www.w3.org/2000/svg\">"
     << "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>";
  double yy = 20;
  for (const auto& [op, by] : s.per_op) {
    os << "<text x=\"" << L - 8 << "\" y=\"" << yy + bar << "\" text-anchor=\"end\" font-size=\"12\">" << esc(op) << "</text>";
    for (size_t k = 0; k < s.methods.size(); ++k) {
      const double v = by.count(s.methods[k]) ? by.at(s.methods[k]) : 1.0;
      const double w = (W - L - 80) * v / xmax;
      os << "<rect x=\"" << L << "\" y=\"" << yy << "\" width=\"" << w << "\" height=\"" << bar - 2 << "\" fill=\""
         << kColors[k % 8] << "\"><title>" << esc(s.methods[k]) << ": " << num(v) << "x</title></rect>"
         << "<text x=\"" << L + w + 4 << "\" y=\"" << yy + bar - 3 << "\" font-size=\"10\">" << esc(s.methods[k]) << " "
         << num(v) << "x</text>";
      yy += bar;
    }
    yy += gap;
  }
  const double x1 = L + (W - L - 80) / xmax;
  os << "<line x1=\"" << x1 << "\" y1=\"10\" x2=\"" << x1 << "\" y2=\"" << H - 5
     << "\" stroke=\"#000\" stroke-dasharray=\"4 3\"/><text x=\"" << x1 << "\" y=\"10\" font-size=\"10\">1.0x</text></svg>";
  return os.str();
}

// The Task Duration of the slowest evaluation case of the baseline ("baseline") or best ("best");
// 0 when the report does not say. A report with one evaluation case gives it as its time.
double slowest_case_us(const nlohmann::json& report, const std::string& which) {
  if (report.contains(which + "_slowest_case_us")) return report[which + "_slowest_case_us"].get<double>();
  if (report.contains("cases") && report["cases"].size() == 1) return report.value(which + "_us", 0.0);
  return 0;
}

// Pipe times of the slowest evaluation case, baseline and best, stacked, for one run per
// operator, with a tick at the case's Task Duration: the pipes overlap each other and the
// cores' launch, so the stack is not the time, and a best on fewer cores can have longer pipe
// times per core and still finish first.
std::string pipes_svg(const std::vector<const RunResult*>& runs) {
  std::set<std::string> pipes;
  double tmax = 0;
  for (const auto* r : runs)
    for (const char* which : {"baseline", "best"}) {
      double t = 0;
      const nlohmann::json times = r->report.value(std::string(which) + "_pipes", nlohmann::json::object());
      for (const auto& [k, v] : times.items()) {
        pipes.insert(k);
        t += v.get<double>();
      }
      tmax = std::max({tmax, t, slowest_case_us(r->report, which)});
    }
  size_t longest = 0;
  for (const auto* r : runs) longest = std::max(longest, r->run.op.size() + std::string(" baseline").size());
  const double L = std::max(190.0, label_room(longest, 11)), W = L + 550, bar = 14, H = 40 + runs.size() * (2 * bar + 10) + 20;
  std::ostringstream os;
  os << "<svg class=\"plot pipes\" width=\"" << W << "\" height=\"" << H << "\" xmlns=\"http://www.w3.org/2000/svg\">"
     << "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>";
  std::vector<std::string> order(pipes.begin(), pipes.end());
  for (size_t k = 0; k < order.size(); ++k)
    os << "<rect x=\"" << 10 + 110 * k << "\" y=\"4\" width=\"10\" height=\"10\" fill=\"" << kColors[k % 8]
       << "\"/><text x=\"" << 24 + 110 * k << "\" y=\"13\" font-size=\"10\">" << esc(order[k]) << "</text>";
  const double legend_x = 10 + 110 * static_cast<double>(order.size());
  os << "<rect x=\"" << legend_x + 4 << "\" y=\"3\" width=\"2\" height=\"12\" fill=\"#000\"/><text x=\"" << legend_x + 12
     << "\" y=\"13\" font-size=\"10\">Task Duration</text>";
  double yy = 30;
  for (const auto* r : runs) {
    for (const char* which : {"baseline", "best"}) {
      os << "<text x=\"" << L - 8 << "\" y=\"" << yy + bar - 3 << "\" text-anchor=\"end\" font-size=\"11\">"
         << esc(r->run.op) << " " << which << "</text>";
      double x = L;
      const auto times = r->report.value(std::string(which) + "_pipes", nlohmann::json::object());
      for (size_t k = 0; k < order.size(); ++k) {
        const double v = times.value(order[k], 0.0);
        const double w = tmax > 0 ? (W - L - 20) * v / tmax : 0;
        os << "<rect x=\"" << x << "\" y=\"" << yy << "\" width=\"" << w << "\" height=\"" << bar - 2 << "\" fill=\""
           << kColors[k % 8] << "\"><title>" << esc(order[k]) << " " << num(v) << " us</title></rect>";
        x += w;
      }
      if (const double t = slowest_case_us(r->report, which); t > 0 && tmax > 0)
        os << "<rect class=\"task-duration\" x=\"" << L + (W - L - 20) * t / tmax - 1 << "\" y=\"" << yy - 1
           << "\" width=\"2\" height=\"" << bar << "\" fill=\"#000\"><title>Task Duration " << num(t) << " us</title></rect>";
      yy += bar;
    }
    yy += 10;
  }
  os << "</svg>";
  return os.str();
}

}  // namespace

std::string html_report(const BenchSummary& s) {
  std::ostringstream os;
  os << "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>ascendopt bench</title><style>"
     << "body{font-family:sans-serif;margin:24px;color:#111}table{border-collapse:collapse;margin:8px 0}"
     << "td,th{border:1px solid #bbb;padding:3px 8px;text-align:right}th{background:#eee}"
     << "pre{background:#f6f6f6;padding:8px;overflow:auto;font-size:11px}.plot{margin:8px 0;border:1px solid #ddd}"
     << "</style></head><body><h1>ascendopt bench</h1>";
  os << "<p>" << s.ops.size() << " operator(s), " << s.seeds << " seed(s) per run, methods";
  for (const auto& m : s.methods) os << " " << esc(m);
  os << ". Speedup: baseline time / verified best time on the evaluation cases (simulated Task Duration); a run "
        "that failed or whose result did not pass verification counts as 1.0. Correct-only: geomean over runs "
        "with a verified result faster than the baseline. fast_p: share of runs with a verified speedup above p. "
        "/T_HW: geomean of best time over the hardware limit.</p>";
  os << "<h2>Figures</h2><table><tr><th>method</th><th>budget</th><th>geomean</th><th>seed range</th>"
        "<th>correct-only</th>";
  for (double p : kFastP) os << "<th>fast_" << p << "</th>";
  os << "<th>/T_HW</th><th>verified</th></tr>";
  for (const auto& f : s.figures) {
    os << "<tr><td>" << esc(f.method) << "</td><td>" << f.budget << "</td><td>" << num(f.geomean) << "</td><td>"
       << num(f.seed_min) << " - " << num(f.seed_max) << "</td><td>" << num(f.geomean_correct) << "</td>";
    for (double v : f.fast_p) os << "<td>" << num(v, 2) << "</td>";
    os << "<td>" << num(f.t_hw_ratio, 2) << "</td><td>" << f.verified << "/" << f.runs << "</td></tr>";
  }
  os << "</table><h2>Progress: best speedup against evaluations spent</h2>";
  for (size_t b : s.budgets) os << progress_svg(s, b);
  os << "<h2>Speedup per operator (largest budget, mean over seeds)</h2>" << per_op_svg(s);

  // Per operator: the run of the first method at the largest budget with seed 1.
  const size_t largest = s.budgets.empty() ? 0 : *std::max_element(s.budgets.begin(), s.budgets.end());
  std::vector<const RunResult*> shown;
  for (const auto& r : s.results)
    if (r.reported && r.run.budget == largest && r.run.seed == 1 && !s.methods.empty() && r.run.method == s.methods[0])
      shown.push_back(&r);
  os << "<h2>Pipe times of the slowest evaluation case, baseline and best (" << esc(s.methods.empty() ? "" : s.methods[0])
     << ", budget " << largest << ", seed 1)</h2><p>Each pipe's busy time on a core (msprof's aiv_*_time), "
        "stacked. The pipes run at the same time as each other and as the launch of the cores, so the stack is "
        "not the time: the black tick is the case's Task Duration. A best on fewer cores can keep each pipe busy "
        "longer per core and still finish first.</p>"
     << pipes_svg(shown);
  os << "<h2>Lineage of each operator's best</h2>";
  for (const auto* r : shown) {
    os << "<h3>" << esc(r->run.op) << ": " << num(r->report.value("speedup", 1.0)) << "x"
       << (r->verified ? " (verified)" : " (not verified)") << "</h3><table><tr><th>#</th><th>step</th><th>before us</th>"
       << "<th>after us</th><th>gain</th><th>bound before</th><th>bound after</th></tr>";
    for (const auto& st : r->report.value("lineage", nlohmann::json::array()))
      os << "<tr><td>" << st.value("index", 0) << "</td><td style=\"text-align:left\">" << esc(st.value("origin", ""))
         << "</td><td>" << num(st.value("before_us", 0.0)) << "</td><td>" << num(st.value("after_us", 0.0)) << "</td><td>"
         << num(st.value("gain", 1.0)) << "</td><td>" << esc(st.value("bound_before", "")) << "</td><td>"
         << esc(st.value("bound_after", "")) << "</td></tr>";
    os << "</table>";
    const std::string diff = r->report.value("diff", "");
    os << "<details><summary>diff against the input</summary><pre>"
       << esc(diff.empty() ? "(no change: the baseline stayed best)" : diff) << "</pre></details>";
  }
  os << "</body></html>\n";
  return os.str();
}

}  // namespace aoc::bench
