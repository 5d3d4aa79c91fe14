// Token and cost accounting of one client (one run): what the endpoint reported in the
// answers' usage fields, priced with the per-million-token prices of the settings.
// Answers replayed from the cache are counted apart and cost nothing.
#pragma once
#include <cstdint>
#include <mutex>
#include <string>

#include <nlohmann/json.hpp>

namespace aoc::llm {

struct TokenUsage {
  int64_t prompt_tokens = 0;
  int64_t completion_tokens = 0;
  bool reported = false;  // the answer carried a usage object
};

struct UsageTotals {
  int64_t requests = 0;           // chat completions asked of the endpoint and answered
  int64_t cache_hits = 0;         // answered from the cache
  int64_t failed = 0;             // requests that ended in an error after all attempts
  int64_t retries = 0;            // extra HTTP attempts
  int64_t prompt_tokens = 0;      // live answers only
  int64_t completion_tokens = 0;
  int64_t cached_prompt_tokens = 0;  // what the cached answers had cost when first asked
  int64_t cached_completion_tokens = 0;
  int64_t usage_missing = 0;      // live answers without a usage object (their tokens are unknown)
  double cost = 0;                // live answers, at the configured prices
  double seconds = 0;             // wall time spent in live requests, retries and waits included

  nlohmann::json to_json() const;
  // One line for a person: "llm: 3 request(s) to the endpoint, 0 from the cache, ...".
  std::string summary_line() const;
};

class UsageMeter {
 public:
  UsageMeter(double prompt_price_per_million, double completion_price_per_million)
      : prompt_price_(prompt_price_per_million), completion_price_(completion_price_per_million) {}

  void live_answer(const TokenUsage& u, double seconds);
  void cached_answer(const TokenUsage& u);
  void failure(double seconds);
  void retry();
  double cost_of(const TokenUsage& u) const;
  UsageTotals totals() const;

 private:
  double prompt_price_, completion_price_;
  mutable std::mutex mu_;
  UsageTotals t_;
};

}  // namespace aoc::llm
