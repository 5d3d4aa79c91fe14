#include "cluster/slurm_queue.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <optional>

namespace aoc::cluster {

namespace {

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == sep) {
      out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  return out;
}

std::optional<size_t> number(std::string_view s) {
  size_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// "12_3" -> {12, [3]}; "12_[4-6,9%2]" -> {12, [4, 5, 6, 9]}; anything else -> nullopt.
std::optional<std::pair<std::string, std::vector<size_t>>> element_ids(std::string_view id) {
  const size_t us = id.find('_');
  if (us == std::string_view::npos || us == 0) return std::nullopt;
  const std::string job(id.substr(0, us));
  if (!number(job)) return std::nullopt;
  std::string_view rest = id.substr(us + 1);
  std::vector<size_t> indices;
  if (const auto one = number(rest)) return std::make_pair(job, std::vector<size_t>{*one});
  if (rest.size() < 2 || rest.front() != '[' || rest.back() != ']') return std::nullopt;
  rest = rest.substr(1, rest.size() - 2);
  rest = rest.substr(0, rest.find('%'));  // the throttle
  for (const auto part : split(rest, ',')) {
    const size_t dash = part.find('-');
    const auto lo = number(part.substr(0, dash));
    const auto hi = dash == std::string_view::npos ? lo : number(part.substr(dash + 1));
    if (!lo || !hi || *hi < *lo || *hi - *lo > 1000000) return std::nullopt;
    for (size_t i = *lo; i <= *hi; ++i) indices.push_back(i);
  }
  return std::make_pair(job, indices);
}

std::vector<ElementState> parse_lines(std::string_view out, bool with_reason) {
  std::vector<ElementState> states;
  for (const auto raw : split(out, '\n')) {
    const auto fields = split(trim(raw), '|');
    if (fields.size() < 2) continue;
    const auto ids = element_ids(trim(fields[0]));
    if (!ids) continue;
    std::string state(trim(fields[1]));
    state = state.substr(0, state.find(' '));  // "CANCELLED by 0"
    const std::string reason = with_reason && fields.size() > 2 ? std::string(trim(fields[2])) : "";
    for (size_t i : ids->second) states.push_back({ids->first, i, state, reason});
  }
  return states;
}

}  // namespace

std::vector<ElementState> parse_squeue(std::string_view out) { return parse_lines(out, true); }

std::vector<ElementState> parse_sacct(std::string_view out) { return parse_lines(out, false); }

bool is_terminal_state(std::string_view state) {
  static constexpr std::array<std::string_view, 12> terminal = {
      "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "PREEMPTED", "NODE_FAIL", "OUT_OF_MEMORY", "BOOT_FAIL",
      "DEADLINE", "REVOKED", "SPECIAL_EXIT", "OOM"};
  return std::find(terminal.begin(), terminal.end(), state) != terminal.end();
}

}  // namespace aoc::cluster
