// When to try a failed request again: exponential backoff with seeded jitter, and the
// server's Retry-After when it sends one.
#pragma once
#include <ctime>
#include <optional>
#include <string>

#include "base/rng.h"

namespace aoc::llm {

struct BackoffPolicy {
  double initial_s = 1;
  double max_s = 60;
};

// Delay before retry `retry` (0 for the first retry): initial * 2^retry, at most max,
// times a jitter factor drawn uniformly from [0.5, 1) so clients started together spread out.
double backoff_delay(const BackoffPolicy& p, int retry, aoc::base::Xoshiro256& rng);

// A Retry-After header value in seconds from `now`: delta-seconds or an HTTP-date.
// nullopt when empty or unreadable; a date in the past gives 0.
std::optional<double> parse_retry_after(const std::string& value, std::time_t now);

}  // namespace aoc::llm
