#include "llm/prompt.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "llm/text_lines.h"

namespace aoc::llm {

const char* to_string(ProposalMode m) {
  switch (m) {
    case ProposalMode::Guided: return "guided";
    case ProposalMode::Sample: return "sample";
    case ProposalMode::Rewind: return "rewind";
  }
  return "?";
}

std::optional<ProposalMode> parse_mode(std::string_view s) {
  if (s == "guided") return ProposalMode::Guided;
  if (s == "sample") return ProposalMode::Sample;
  if (s == "rewind") return ProposalMode::Rewind;
  return std::nullopt;
}

namespace {

std::string fixed(double v, int digits = 2) {
  char buf[48];
  std::snprintf(buf, sizeof(buf), "%.*f", digits, v);
  return buf;
}

// Microseconds: three decimals, or two significant digits below 0.01 us.
std::string us(double v) {
  if (v >= 0.01 || v == 0) return fixed(v, 3);
  char buf[48];
  std::snprintf(buf, sizeof(buf), "%.2g", v);
  return buf;
}

std::string cut(const std::string& s, size_t max) {
  if (s.size() <= max) return s;
  return s.substr(0, max) + "\n[... " + std::to_string(s.size() - max) + " more characters not shown]";
}

std::string fence_language(const std::string& file) {
  const auto dot = file.rfind('.');
  const std::string ext = dot == std::string::npos ? "" : file.substr(dot + 1);
  if (ext == "cpp" || ext == "cc" || ext == "h" || ext == "hpp") return "cpp";
  return "";
}

const char* const kSystem =
    "You are an expert AscendC programmer who optimizes operators for Huawei Ascend NPUs. A Da Vinci AI vector "
    "core has a scalar unit that issues instructions to in-order pipes: MTE2 copies global memory (GM) into the "
    "unified buffer (UB), V runs vector instructions on UB, MTE3 copies UB back to GM; queues (TQue EnQue/DeQue) "
    "and SetFlag/WaitFlag events order them, so copies and compute overlap only when the code lets them. "
    "Kernels (op_kernel/) are compiled with g++ against an AscendC-compatible API and run on a simulator that "
    "reports per-pipe times; the tiling code (op_host/) decides how work is split over cores and tiles. Host "
    "facilities (files, threads, clocks, system calls, environment, inline assembly) are refused. You answer "
    "with precise edits in the format the user gives, and every change must keep the operator correct on every "
    "case, dtype and shape.";

void write_task(std::ostringstream& os, const PromptInputs& in) {
  os << "## Task\n";
  switch (in.mode) {
    case ProposalMode::Guided:
      os << "Make this operator faster on the simulated hardware while keeping it correct on every case. The "
            "profile below shows where the time goes: the pipe that bounds each case and how far the case is "
            "from T_HW, the hardware lower bound no kernel can beat. ";
      if (!in.experiences.empty())
        os << "The experience entries are optimizations that were measured on other kernels: apply the one that "
              "fits this kernel's bottleneck, or a better idea of your own if none fits. ";
      os << "Make one coherent change.\n\n";
      break;
    case ProposalMode::Sample:
      os << "Make this operator faster on the simulated hardware while keeping it correct on every case. The "
            "profile below shows where the time goes and how far each case is from T_HW, the hardware lower "
            "bound. Make one coherent change.\n\n";
      break;
    case ProposalMode::Rewind:
      os << "This is a strong, hand-optimized kernel. Remove exactly one optimization from it: ";
      if (in.rewind_target.empty())
        os << "the one you judge contributes most to its speed";
      else
        os << "the one described as \"" << in.rewind_target << "\"";
      os << ". Replace the optimized code with the plain, straightforward way of doing the same thing (for "
            "example single instead of double buffering, one copy per row instead of one batched copy, fixed "
            "tiles instead of tuned ones) and leave everything else as it is. The result must stay correct on "
            "every case; it is expected to be slower. Begin the answer with one line \"REMOVED: <short name of "
            "the optimization>\".\n\n";
      break;
  }
}

void write_operator(std::ostringstream& os, const aoc::package::OpPackage& p, const PromptLimits& limits) {
  os << "## Operator " << p.name << " (category " << p.category << ", op type " << p.op_type << ", kernel "
     << p.kernel << ")\n";
  const std::string desc = package_description(p);
  if (!desc.empty()) os << desc << "\n";
  auto tensors = [&](const char* what, const std::vector<aoc::package::TensorSpec>& ts) {
    os << what << ":";
    for (const auto& t : ts) {
      os << " " << t.name << " (";
      for (size_t i = 0; i < t.dtypes.size(); ++i) os << (i ? "|" : "") << aoc::package::info(t.dtypes[i]).name;
      os << ", " << t.format << ")";
    }
    os << "\n";
  };
  tensors("Inputs", p.inputs);
  tensors("Outputs", p.outputs);
  if (!p.attrs.empty()) {
    os << "Attributes:";
    for (const auto& a : p.attrs) {
      os << " " << a.name << " (" << a.type;
      if (a.default_value) os << ", default " << aoc::package::to_string(*a.default_value);
      os << ")";
    }
    os << "\n";
  }
  os << "Public cases (" << p.cases.size() << "; hidden cases of other shapes and values are checked too):\n";
  for (size_t i = 0; i < p.cases.size() && i < limits.max_cases; ++i) {
    const auto& c = p.cases[i];
    os << "- " << c.name << ": " << p.variant_label(c.variant);
    for (const auto& [input, shape] : c.shapes) os << " " << input << "=" << aoc::package::shape_to_string(shape);
    for (const auto& [name, value] : c.attrs) os << " " << name << "=" << aoc::package::to_string(value);
    os << ", values " << c.values.dist;
    if (c.values.dist == "uniform") os << " [" << c.values.low << ", " << c.values.high << ")";
    if (!c.values.special.empty()) os << " with special values";
    os << "\n";
  }
  if (p.cases.size() > limits.max_cases) os << "- ... " << p.cases.size() - limits.max_cases << " more\n";
  os << "\n";
}

std::string pipe_short(const std::string& field) {
  std::string s = field;
  if (s.rfind("aiv_", 0) == 0 || s.rfind("aic_", 0) == 0) s = s.substr(4);
  const auto t = s.rfind("_time");
  if (t != std::string::npos && t + 5 == s.size()) s = s.substr(0, t);
  return s;
}

void write_profile(std::ostringstream& os, const ProfileSummary& p) {
  os << "## Simulated profile of the current kernel (" << p.soc << ")\n";
  os << "Geomean Task Duration " << us(p.geomean_task_us) << " us";
  if (p.geomean_ratio_to_t_hw) os << ", " << fixed(*p.geomean_ratio_to_t_hw) << "x T_HW";
  os << ". Per case: task time, T_HW (its bound unit), task/T_HW, the bounding pipe, and per-pipe busy time in us "
        "(ratio of the core time):\n";
  for (const auto& c : p.cases) {
    os << "- " << c.name << " (" << c.dtype << " " << c.shapes << "): " << fixed(c.task_us, 3) << " us";
    if (c.t_hw_us && *c.t_hw_us > 0)
      os << ", T_HW " << us(*c.t_hw_us) << " us (" << c.t_hw_bound << "), " << fixed(c.task_us / *c.t_hw_us)
         << "x";
    if (!c.bound_pipe.empty()) os << ", bound " << pipe_short(c.bound_pipe);
    std::string pipes;
    for (const auto& [field, v] : c.pipes) {
      if (field.size() < 6 || field.compare(field.size() - 5, 5, "_time") != 0) continue;
      if (field == "aiv_time" || field == "aic_time") continue;
      const std::string ratio_field = field.substr(0, field.size() - 5) + "_ratio";
      pipes += (pipes.empty() ? "" : ", ") + pipe_short(field) + " " + us(v);
      if (auto r = c.pipes.find(ratio_field); r != c.pipes.end()) pipes += " (" + fixed(r->second) + ")";
    }
    if (!pipes.empty()) os << "; " << pipes;
    os << "\n";
  }
  os << "\n";
}

void write_experiences(std::ostringstream& os, const std::vector<ExperienceEntry>& es, const PromptLimits& limits) {
  os << "## Experience from other kernels\n";
  for (size_t i = 0; i < es.size() && i < limits.max_experiences; ++i) {
    const auto& e = es[i];
    os << "### " << i + 1 << ". " << e.title << "\n";
    if (!e.bottleneck.empty()) os << "Bottleneck: " << e.bottleneck << "\n";
    if (!e.effect.empty()) os << "Measured effect: " << e.effect << "\n";
    if (!e.description.empty()) os << e.description << "\n";
    if (!e.diff.empty()) os << "```diff\n" << cut(e.diff, limits.max_diff_chars) << "\n```\n";
  }
  os << "\n";
}

void write_failure(std::ostringstream& os, const AttemptFailure& f, const PromptLimits& limits) {
  os << "## Your previous attempt failed (" << f.verdict << ")\n" << f.summary << "\n";
  for (const auto& d : f.details) os << d << "\n";
  if (!f.answer_excerpt.empty())
    os << "Your previous answer was:\n````\n" << cut(f.answer_excerpt, limits.max_answer_excerpt) << "\n````\n";
  os << "It was not kept: the sources below are unchanged. Fix the problem in a new answer.\n\n";
}

void write_sources(std::ostringstream& os, const SourceTree& t) {
  os << "## Current sources (the only files; edit them, do not create others)\n";
  for (const auto& [name, content] : t.files) {
    os << name << "\n```" << fence_language(name) << "\n" << content;
    if (!content.empty() && content.back() != '\n') os << "\n";
    os << "```\n\n";
  }
}

void write_format(std::ostringstream& os, const PromptInputs& in) {
  const std::string kernel = in.sources.files.count("op_kernel/" + in.package->name + ".cpp")
                                 ? "op_kernel/" + in.package->name + ".cpp"
                                 : (in.sources.files.empty() ? "op_kernel/kernel.cpp" : in.sources.files.rbegin()->first);
  os << "## Answer format\n"
        "Give each change as a SEARCH/REPLACE block with the path of its file alone on the line before it:\n\n"
     << kernel
     << "\n<<<<<<< SEARCH\n"
        "lines copied exactly from the current file, enough of them to match in one place only\n"
        "=======\n"
        "the lines that replace them\n"
        ">>>>>>> REPLACE\n\n"
        "A block right after another block edits the same file. To replace a whole file instead, give all of it "
        "in a code block whose opening fence names it, e.g. ```cpp "
     << kernel
     << ". Keep the kernel's extern \"C\" entry point and the tiling function's signature. Keep any explanation "
        "short and put it before the edits.\n";
  if (in.mode == ProposalMode::Rewind) os << "Start with the line \"REMOVED: <short name of the optimization>\".\n";
}

}  // namespace

std::string package_description(const aoc::package::OpPackage& p) {
  std::ifstream in(p.toml_path);
  std::string line, out;
  while (std::getline(in, line)) {
    const std::string t = trim(line);
    if (t.empty() && out.empty()) continue;
    if (t.empty() || t[0] != '#') break;
    out += trim(t.substr(1)) + "\n";
  }
  return out;
}

std::vector<ChatMessage> build_prompt(const PromptInputs& in, const PromptLimits& limits) {
  if (in.package == nullptr) throw std::invalid_argument("build_prompt: no operator package");
  std::ostringstream os;
  write_task(os, in);
  write_operator(os, *in.package, limits);
  if (in.profile) write_profile(os, *in.profile);
  if (in.mode == ProposalMode::Guided && !in.experiences.empty()) write_experiences(os, in.experiences, limits);
  if (in.previous_failure && in.mode != ProposalMode::Sample) write_failure(os, *in.previous_failure, limits);
  write_sources(os, in.sources);
  write_format(os, in);
  return {{"system", kSystem}, {"user", os.str()}};
}

}  // namespace aoc::llm
