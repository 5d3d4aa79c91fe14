// Errors of the LLM client, by kind, so callers can tell a configuration mistake (stop
// and say what to fix) from an endpoint that failed (count it, maybe try later) and
// from a replay that has no recorded answer. Messages never hold the API key.
#pragma once
#include <stdexcept>
#include <string>

namespace aoc::llm {

enum class ErrorKind {
  Config,       // the settings are wrong: what and how to fix it
  Connect,      // no connection to the endpoint (refused, unreachable, TLS)
  Timeout,      // no complete answer within the timeouts
  Http,         // the endpoint answered with an error status
  BadResponse,  // the endpoint answered 200 with something that is not a chat completion
  ReplayMiss,   // --llm-replay and the request is not in the cache
  Cache,        // the response cache cannot be read or written
};

const char* to_string(ErrorKind k);

class LlmError : public std::runtime_error {
 public:
  LlmError(ErrorKind kind, const std::string& message, int http_status = 0)
      : std::runtime_error(message), kind_(kind), http_status_(http_status) {}
  ErrorKind kind() const { return kind_; }
  int http_status() const { return http_status_; }  // 0 when no HTTP status applies

 private:
  ErrorKind kind_;
  int http_status_;
};

}  // namespace aoc::llm
