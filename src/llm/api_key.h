// The API key: read from the environment variable the settings name, kept in memory
// only, sent only in the Authorization header. Every text the client produces for a
// person or a file (errors, reports, cached answers) goes through redact().
#pragma once
#include <string>

namespace aoc::llm {

class ApiKey {
 public:
  ApiKey() = default;
  // Empty `variable`: no key (local servers). A named variable that is unset or empty is
  // an LlmError(Config) naming the variable.
  static ApiKey from_environment(const std::string& variable);
  static ApiKey from_value(std::string key) { ApiKey k; k.key_ = std::move(key); return k; }

  bool empty() const { return key_.empty(); }
  const std::string& value() const { return key_; }

  // `text` with the key, and any run of 8 or more consecutive characters of it (partly
  // masked echoes such as "sk-abc...wxyz" included), replaced by "[redacted]".
  std::string redact(const std::string& text) const;

 private:
  std::string key_;
};

}  // namespace aoc::llm
