// One HTTP POST of a JSON body over libcurl: connect and total timeouts, a cap on the
// answer size, the Retry-After header kept. Nothing here retries or logs; the bearer
// token goes into the Authorization header and nowhere else.
#pragma once
#include <cstddef>
#include <string>

namespace aoc::llm {

struct HttpOutcome {
  enum class Failure { None, Connect, Timeout, Resolve, TooLarge, Other };
  Failure failure = Failure::None;  // None: an HTTP status arrived
  std::string failure_text;         // libcurl's description of the failure
  long status = 0;
  std::string body;
  std::string retry_after;  // the header's value, when sent
};

struct HttpPostOptions {
  double connect_timeout_s = 10;
  double total_timeout_s = 600;
  size_t max_body_bytes = 8u << 20;
};

HttpOutcome http_post_json(const std::string& url, const std::string& json_body, const std::string& bearer_token,
                           const HttpPostOptions& opt);

}  // namespace aoc::llm
