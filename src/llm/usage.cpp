#include "llm/usage.h"

#include <iomanip>
#include <sstream>

namespace aoc::llm {

nlohmann::json UsageTotals::to_json() const {
  return {{"requests", requests},
          {"cache_hits", cache_hits},
          {"failed", failed},
          {"retries", retries},
          {"prompt_tokens", prompt_tokens},
          {"completion_tokens", completion_tokens},
          {"cached_prompt_tokens", cached_prompt_tokens},
          {"cached_completion_tokens", cached_completion_tokens},
          {"usage_missing", usage_missing},
          {"cost", cost},
          {"seconds", seconds}};
}

std::string UsageTotals::summary_line() const {
  std::ostringstream os;
  os << "llm: " << requests << " request(s) to the endpoint, " << cache_hits << " from the cache, " << retries
     << " retr" << (retries == 1 ? "y" : "ies") << ", " << failed << " failed; " << prompt_tokens << " prompt + "
     << completion_tokens << " completion tokens";
  if (usage_missing) os << " (" << usage_missing << " answer(s) without usage)";
  os << ", cost " << std::fixed << std::setprecision(4) << cost;
  if (cache_hits) os << "; cached answers had used " << cached_prompt_tokens << " + " << cached_completion_tokens
                     << " tokens";
  return os.str();
}

double UsageMeter::cost_of(const TokenUsage& u) const {
  return (static_cast<double>(u.prompt_tokens) * prompt_price_ +
          static_cast<double>(u.completion_tokens) * completion_price_) /
         1e6;
}

void UsageMeter::live_answer(const TokenUsage& u, double seconds) {
  std::lock_guard<std::mutex> lock(mu_);
  ++t_.requests;
  t_.seconds += seconds;
  if (!u.reported) {
    ++t_.usage_missing;
    return;
  }
  t_.prompt_tokens += u.prompt_tokens;
  t_.completion_tokens += u.completion_tokens;
  t_.cost += cost_of(u);
}

void UsageMeter::cached_answer(const TokenUsage& u) {
  std::lock_guard<std::mutex> lock(mu_);
  ++t_.cache_hits;
  t_.cached_prompt_tokens += u.prompt_tokens;
  t_.cached_completion_tokens += u.completion_tokens;
}

void UsageMeter::failure(double seconds) {
  std::lock_guard<std::mutex> lock(mu_);
  ++t_.failed;
  t_.seconds += seconds;
}

void UsageMeter::retry() {
  std::lock_guard<std::mutex> lock(mu_);
  ++t_.retries;
}

UsageTotals UsageMeter::totals() const {
  std::lock_guard<std::mutex> lock(mu_);
  return t_;
}

}  // namespace aoc::llm
