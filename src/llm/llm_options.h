// Settings of the LLM client in one struct with its defaults, filled from a TOML file
// (--llm-config, docs/llm.md) and then from command-line flags. The API key is never
// part of it: only the name of the environment variable that holds it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace aoc::llm {

struct LlmOptions {
  // Endpoint: an OpenAI-compatible server; requests go to <base_url>/chat/completions.
  std::string base_url = "http://127.0.0.1:8000/v1";
  std::string model;          // required: the model name the server knows
  std::string api_key_env;    // variable holding the key; empty: no Authorization header

  // Sampling.
  double temperature = 0.7;
  std::optional<double> top_p;              // not sent when unset
  int64_t max_tokens = 4096;
  std::string max_tokens_field = "max_tokens";  // or "max_completion_tokens" (newer hosted models)
  uint64_t seed = 0;          // base of the per-request seeds
  bool send_seed = true;      // false for servers that refuse a "seed" field (it still keys the cache)

  // Transport.
  double connect_timeout_s = 10;
  double timeout_s = 600;     // whole request, generation included
  int retries = 3;            // extra attempts after 429, 5xx, connection failures and timeouts
  double backoff_initial_s = 1;
  double backoff_max_s = 60;
  double max_retry_after_s = 300;  // a longer Retry-After fails the request instead of waiting
  int concurrency = 2;        // requests in flight at once per client
  size_t max_response_bytes = 8u << 20;

  // Accounting: price per million tokens, in whatever currency the user bills in.
  double prompt_price_per_million = 0;
  double completion_price_per_million = 0;

  // Response cache (docs/llm.md): answers are kept by request so a run can be replayed.
  bool cache = true;
  bool replay = false;        // answers only from the cache; a miss is an error
  std::filesystem::path cache_dir;  // empty: <ascendopt cache dir>/llm

  // Limits on what is sent and accepted.
  size_t max_prompt_chars = 400000;
  size_t max_answer_chars = 120000;
};

// Reads a TOML file of the keys above (docs/llm.md); unknown keys, wrong types and a key
// that looks like a secret are errors naming the file, the key and the fix (LlmError Config).
// Relative cache_dir is taken relative to the file's folder.
LlmOptions load_llm_options(const std::filesystem::path& file, LlmOptions base = {});

// Checks ranges and required settings; throws LlmError(Config) saying what to change.
void validate(const LlmOptions& o);

// The endpoint without user info or query string, for messages and reports.
std::string display_url(const std::string& url);

// The settings for a report: the key's variable name, never the key.
nlohmann::json to_json(const LlmOptions& o);

}  // namespace aoc::llm
