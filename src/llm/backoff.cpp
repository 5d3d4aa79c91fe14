#include "llm/backoff.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace aoc::llm {

double backoff_delay(const BackoffPolicy& p, int retry, aoc::base::Xoshiro256& rng) {
  const double base = std::min(p.max_s, p.initial_s * std::ldexp(1.0, std::min(retry, 30)));
  return base * rng.uniform(0.5, 1.0);
}

std::optional<double> parse_retry_after(const std::string& value, std::time_t now) {
  size_t b = 0, e = value.size();
  while (b < e && std::isspace(static_cast<unsigned char>(value[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(value[e - 1]))) --e;
  if (b == e) return std::nullopt;
  const std::string v = value.substr(b, e - b);
  if (std::all_of(v.begin(), v.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; })) {
    if (v.size() > 9) return std::nullopt;
    return std::stod(v);
  }
  // Some servers send fractional seconds.
  char* end = nullptr;
  const double d = std::strtod(v.c_str(), &end);
  if (end != nullptr && *end == '\0' && std::isfinite(d) && d >= 0) return d;
  const std::time_t t = curl_getdate(v.c_str(), nullptr);
  if (t < 0) return std::nullopt;
  return std::max(0.0, std::difftime(t, now));
}

}  // namespace aoc::llm
