#include "eval/verdict.h"

#include <array>

namespace aoc::eval {

namespace {
constexpr std::array<std::pair<Verdict, const char*>, 10> kNames = {{
    {Verdict::Ok, "ok"},
    {Verdict::Suspicious, "suspicious"},
    {Verdict::WrongResult, "wrong_result"},
    {Verdict::RuntimeError, "runtime_error"},
    {Verdict::MemoryLimit, "memory_limit"},
    {Verdict::Timeout, "timeout"},
    {Verdict::Crash, "crash"},
    {Verdict::Rejected, "rejected"},
    {Verdict::CompileError, "compile_error"},
    {Verdict::Error, "error"},
}};
}  // namespace

const char* to_string(Verdict v) {
  for (const auto& [k, n] : kNames)
    if (k == v) return n;
  return "?";
}

std::optional<Verdict> parse_verdict(std::string_view s) {
  for (const auto& [k, n] : kNames)
    if (s == n) return k;
  return std::nullopt;
}

int rank(Verdict v) { return static_cast<int>(v); }

}  // namespace aoc::eval
