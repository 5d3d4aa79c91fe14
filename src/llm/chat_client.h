// A chat-completions client for any OpenAI-compatible endpoint (vLLM, Ollama, hosted
// services): POST <base_url>/chat/completions over libcurl, retries with backoff on
// 429 / 5xx / connection failures / timeouts (Retry-After honoured), a limit on requests
// in flight, the response cache (read first, written after each live answer; with
// replay, the only source), and token and cost accounting. Thread-safe: one client
// serves every proposer of a run. docs/llm.md describes the settings.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/rng.h"
#include "llm/api_key.h"
#include "llm/llm_error.h"
#include "llm/llm_options.h"
#include "llm/response_cache.h"
#include "llm/usage.h"

namespace aoc::llm {

struct ChatMessage {
  std::string role;  // "system", "user", "assistant"
  std::string content;
};

struct ChatRequest {
  std::vector<ChatMessage> messages;
  uint64_t seed = 0;  // sent when the settings allow; always part of the cache key
};

struct ChatAnswer {
  std::string content;        // the first choice's message text (redacted)
  std::string finish_reason;  // "stop", "length" (cut at max_tokens) ...
  std::string model;          // as the server names it
  TokenUsage usage;
  std::string key;            // cache key of the request
  bool from_cache = false;
  int attempts = 0;           // HTTP attempts made (0 when from the cache)
  double seconds = 0;
};

class ChatClient {
 public:
  // Validates the settings (LlmError Config). With the cache on, `o.cache_dir` must be set.
  ChatClient(LlmOptions o, ApiKey key);

  // One chat completion. Throws LlmError: Config (prompt over max_prompt_chars),
  // Connect / Timeout / Http after the retries, BadResponse (not a chat completion),
  // ReplayMiss (replay and no recorded answer), Cache. Messages are redacted.
  ChatAnswer complete(const ChatRequest& r);

  // The request as the cache keys it: model, messages, sampling parameters and seed.
  nlohmann::json request_json(const ChatRequest& r) const;
  // <base_url>/chat/completions (a base_url already ending so is taken as is).
  std::string endpoint() const;

  UsageTotals totals() const { return meter_.totals(); }
  std::string redact(const std::string& text) const { return key_.redact(text); }
  const LlmOptions& options() const { return o_; }

 private:
  ChatAnswer ask_endpoint(const ChatRequest& r, const std::string& key);
  nlohmann::json wire_body(const ChatRequest& r) const;
  [[noreturn]] void fail(ErrorKind kind, const std::string& message, int status, double seconds);

  LlmOptions o_;
  ApiKey key_;
  std::optional<ResponseCache> cache_;
  UsageMeter meter_;
  std::mutex slot_mu_;
  std::condition_variable slot_cv_;
  int in_flight_ = 0;
  std::mutex rng_mu_;
  aoc::base::Xoshiro256 jitter_;
};

// Parses a chat-completions response body; throws LlmError(BadResponse) saying what is
// missing. Exposed for tests.
ChatAnswer parse_chat_response(const std::string& body);

}  // namespace aoc::llm
