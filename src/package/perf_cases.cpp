#include "package/perf_cases.h"

#include <algorithm>
#include <sstream>

namespace aoc::package {
namespace {

int64_t elements(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

std::string size_text(int64_t bytes) {
  std::ostringstream os;
  if (bytes >= 1024 * 1024) os << bytes / (1024.0 * 1024.0) << " MB";
  else os << bytes / 1024.0 << " KB";
  return os.str();
}

}  // namespace

int64_t case_data_bytes(const OpPackage& p, const CaseSpec& c) {
  int64_t bytes = 0;
  for (const auto& in : p.inputs)
    bytes += elements(c.shapes.at(in.name)) * static_cast<int64_t>(info(in.dtypes[c.variant]).bytes);
  for (size_t o = 0; o < p.outputs.size(); ++o)
    bytes += elements(p.output_shape(c, o)) * static_cast<int64_t>(info(p.outputs[o].dtypes[c.variant]).bytes);
  return bytes;
}

std::vector<size_t> perf_case_indices(const OpPackage& p) {
  std::vector<size_t> out;
  for (size_t i = 0; i < p.cases.size(); ++i)
    if (p.cases[i].perf) out.push_back(i);
  return out;
}

std::vector<std::string> validate_perf_cases(const OpPackage& p, const PerfCaseRules& rules) {
  std::vector<std::string> problems;
  const std::string where = p.toml_path.string() + ": package '" + p.name + "': ";
  const auto perf = perf_case_indices(p);
  if (perf.size() < rules.min_cases)
    problems.push_back(where + std::to_string(perf.size()) + " performance cases; add " +
                       std::to_string(rules.min_cases - perf.size()) + " more [[cases]] with perf = true and a source "
                       "naming the real model and layer the shape comes from (docs/op-package.md)");
  int64_t smallest = 0, largest = 0;
  for (size_t i : perf) {
    const CaseSpec& c = p.cases[i];
    if (c.source.empty())
      problems.push_back(where + "performance case '" + c.name + "' has no source; add source = \"<model> <where the "
                         "shape occurs>\"");
    const int64_t bytes = case_data_bytes(p, c);
    if (bytes < rules.min_bytes || bytes > rules.max_bytes)
      problems.push_back(where + "performance case '" + c.name + "' moves " + size_text(bytes) + " (inputs and "
                         "outputs); performance cases lie within " + size_text(rules.min_bytes) + " .. " +
                         size_text(rules.max_bytes) + ": pick a token count or batch of the same model that fits");
    smallest = smallest == 0 ? bytes : std::min(smallest, bytes);
    largest = std::max(largest, bytes);
  }
  if (perf.size() >= 2 && static_cast<double>(largest) < rules.min_span * static_cast<double>(smallest))
    problems.push_back(where + "performance cases span only " + size_text(smallest) + " .. " + size_text(largest) +
                       "; add a case at least " + std::to_string(static_cast<int>(rules.min_span)) +
                       "x larger than the smallest (e.g. prefill next to decode token counts)");
  return problems;
}

}  // namespace aoc::package
