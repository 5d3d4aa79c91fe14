#include "llm/chat_client.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <thread>

#include "llm/backoff.h"
#include "llm/http_post.h"

namespace aoc::llm {
using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// A short, single-line excerpt of an error body: the JSON error message when there is one.
std::string error_excerpt(const std::string& body) {
  std::string text = body;
  const json j = json::parse(body, nullptr, false);
  if (!j.is_discarded() && j.is_object() && j.contains("error")) {
    const json& e = j["error"];
    if (e.is_object() && e.contains("message") && e["message"].is_string()) text = e["message"];
    else if (e.is_string()) text = e;
  }
  std::string out;
  for (char c : text) {
    if (out.size() >= 300) {
      out += "...";
      break;
    }
    out += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
  }
  return out;
}

std::string hint_for_status(long status, const LlmOptions& o) {
  if (status == 401 || status == 403)
    return o.api_key_env.empty() ? "; the endpoint wants an API key: export it in a variable and set api_key_env"
                                 : "; check that $" + o.api_key_env + " holds a valid key for this endpoint";
  if (status == 404)
    return "; check base_url (requests go to <base_url>/chat/completions) and that the server serves model '" +
           o.model + "'";
  if (status == 400 || status == 422)
    return "; the endpoint refused the request: if it names seed, set send_seed = false; if it names max_tokens, "
           "lower max_tokens or set max_tokens_field = \"max_completion_tokens\"";
  if (status == 429) return "; rate limited: lower concurrency, raise retries, or try later";
  if (status >= 500) return "; the server failed: check its log";
  return "";
}

// Holds one of the client's `limit` request slots for its lifetime.
class SlotGuard {
 public:
  SlotGuard(std::mutex& mu, std::condition_variable& cv, int& in_flight, int limit)
      : mu_(mu), cv_(cv), in_flight_(in_flight) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return in_flight_ < limit; });
    ++in_flight_;
  }
  ~SlotGuard() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      --in_flight_;
    }
    cv_.notify_one();
  }
  SlotGuard(const SlotGuard&) = delete;
  SlotGuard& operator=(const SlotGuard&) = delete;

 private:
  std::mutex& mu_;
  std::condition_variable& cv_;
  int& in_flight_;
};

bool retryable_status(long s) { return s == 408 || s == 409 || s == 425 || s == 429 || s >= 500; }

}  // namespace

ChatAnswer parse_chat_response(const std::string& body) {
  auto bad = [&](const std::string& what) -> ChatAnswer {
    throw LlmError(ErrorKind::BadResponse,
                   "the endpoint's answer is not a chat completion: " + what + " (it began: " + error_excerpt(body) +
                       ")");
  };
  const json j = json::parse(body, nullptr, false);
  if (j.is_discarded()) return bad("malformed JSON");
  if (!j.is_object()) return bad("not a JSON object");
  if (j.contains("error") && !j["error"].is_null()) return bad("it reports an error");
  if (!j.contains("choices") || !j["choices"].is_array() || j["choices"].empty()) return bad("no choices");
  const json& c = j["choices"][0];
  if (!c.is_object() || !c.contains("message") || !c["message"].is_object()) return bad("choices[0] has no message");
  const json& m = c["message"];
  ChatAnswer a;
  if (m.contains("content") && m["content"].is_string()) a.content = m["content"];
  else if (m.contains("content") && !m["content"].is_null()) return bad("message.content is not text");
  if (c.contains("finish_reason") && c["finish_reason"].is_string()) a.finish_reason = c["finish_reason"];
  if (j.contains("model") && j["model"].is_string()) a.model = j["model"];
  if (j.contains("usage") && j["usage"].is_object()) {
    const json& u = j["usage"];
    if (u.contains("prompt_tokens") && u["prompt_tokens"].is_number_integer() && u.contains("completion_tokens") &&
        u["completion_tokens"].is_number_integer()) {
      a.usage.prompt_tokens = u["prompt_tokens"];
      a.usage.completion_tokens = u["completion_tokens"];
      a.usage.reported = a.usage.prompt_tokens >= 0 && a.usage.completion_tokens >= 0;
    }
  }
  return a;
}

namespace {

json answer_to_cache(const ChatAnswer& a) {
  return {{"content", a.content},
          {"finish_reason", a.finish_reason},
          {"model", a.model},
          {"usage",
           {{"prompt_tokens", a.usage.prompt_tokens},
            {"completion_tokens", a.usage.completion_tokens},
            {"reported", a.usage.reported}}}};
}

ChatAnswer answer_from_cache(const json& j) {
  ChatAnswer a;
  a.content = j.value("content", "");
  a.finish_reason = j.value("finish_reason", "");
  a.model = j.value("model", "");
  if (j.contains("usage") && j["usage"].is_object()) {
    a.usage.prompt_tokens = j["usage"].value("prompt_tokens", int64_t{0});
    a.usage.completion_tokens = j["usage"].value("completion_tokens", int64_t{0});
    a.usage.reported = j["usage"].value("reported", false);
  }
  a.from_cache = true;
  return a;
}

}  // namespace

ChatClient::ChatClient(LlmOptions o, ApiKey key)
    : o_(std::move(o)),
      key_(std::move(key)),
      meter_(o_.prompt_price_per_million, o_.completion_price_per_million),
      jitter_(aoc::base::mix_seed(o_.seed, 0x6a177e4ull)) {
  validate(o_);
  if (o_.cache) {
    if (o_.cache_dir.empty())
      throw LlmError(ErrorKind::Config, "the LLM response cache has no folder: set cache_dir or pass --cache-dir");
    cache_.emplace(o_.cache_dir);
  }
}

std::string ChatClient::endpoint() const {
  std::string u = o_.base_url;
  while (!u.empty() && u.back() == '/') u.pop_back();
  static const std::string tail = "/chat/completions";
  if (u.size() >= tail.size() && u.compare(u.size() - tail.size(), tail.size(), tail) == 0) return u;
  return u + tail;
}

json ChatClient::request_json(const ChatRequest& r) const {
  json msgs = json::array();
  for (const auto& m : r.messages) msgs.push_back({{"role", m.role}, {"content", m.content}});
  json j = {{"model", o_.model},
            {"messages", std::move(msgs)},
            {"temperature", o_.temperature},
            {"max_tokens", o_.max_tokens},
            {"seed", r.seed}};
  if (o_.top_p) j["top_p"] = *o_.top_p;
  return j;
}

json ChatClient::wire_body(const ChatRequest& r) const {
  json j = request_json(r);
  j.erase("max_tokens");
  j[o_.max_tokens_field] = o_.max_tokens;
  if (!o_.send_seed) j.erase("seed");
  j["stream"] = false;
  return j;
}

void ChatClient::fail(ErrorKind kind, const std::string& message, int status, double seconds) {
  meter_.failure(seconds);
  throw LlmError(kind, redact(message), status);
}

ChatAnswer ChatClient::complete(const ChatRequest& r) {
  size_t chars = 0;
  for (const auto& m : r.messages) chars += m.content.size();
  if (chars > o_.max_prompt_chars)
    throw LlmError(ErrorKind::Config, "the prompt has " + std::to_string(chars) + " characters, more than "
                                          "max_prompt_chars = " + std::to_string(o_.max_prompt_chars) +
                                          "; raise it in the --llm-config file if the model's context allows");
  const json req = request_json(r);
  const std::string key = ResponseCache::key_of(req);
  if (cache_) {
    std::string problem;
    if (auto hit = cache_->find(req, &problem)) {
      ChatAnswer a = answer_from_cache(*hit);
      a.key = key;
      meter_.cached_answer(a.usage);
      return a;
    }
    if (o_.replay) {
      meter_.failure(0);
      throw LlmError(ErrorKind::ReplayMiss,
                     redact(problem.empty() ? "replay: no recorded answer for request " + key + " in " +
                                                  cache_->dir().string() +
                                                  "; the run differs from the recorded one (settings, seed, "
                                                  "sources), or run once without --llm-replay to record it"
                                            : "replay: " + problem));
    }
  }
  ChatAnswer a = ask_endpoint(r, key);
  if (cache_) cache_->put(req, answer_to_cache(a));
  return a;
}

ChatAnswer ChatClient::ask_endpoint(const ChatRequest& r, const std::string& key) {
  const auto t0 = Clock::now();
  const std::string url = endpoint();
  const std::string shown = display_url(url);
  const std::string body = wire_body(r).dump();
  HttpPostOptions hopt;
  hopt.connect_timeout_s = o_.connect_timeout_s;
  hopt.total_timeout_s = o_.timeout_s;
  hopt.max_body_bytes = o_.max_response_bytes;
  const BackoffPolicy policy{o_.backoff_initial_s, o_.backoff_max_s};

  for (int attempt = 1;; ++attempt) {
    HttpOutcome h;
    {
      // Only the HTTP exchange holds a slot; waiting for a retry does not.
      SlotGuard slot(slot_mu_, slot_cv_, in_flight_, o_.concurrency);
      h = http_post_json(url, body, key_.value(), hopt);
    }

    ErrorKind kind = ErrorKind::Connect;
    std::string why;
    bool retry = false;
    std::optional<double> wait;
    using F = HttpOutcome::Failure;
    switch (h.failure) {
      case F::None:
        break;
      case F::Connect:
        why = "cannot reach " + shown + ": " + h.failure_text + "; is the server running and base_url right?";
        retry = true;
        break;
      case F::Timeout:
        kind = ErrorKind::Timeout;
        why = "no complete answer from " + shown + " within the timeouts (connect " +
              std::to_string(o_.connect_timeout_s) + " s, total " + std::to_string(o_.timeout_s) +
              " s): " + h.failure_text + "; raise timeout in the --llm-config file or --llm-timeout";
        retry = true;
        break;
      case F::Resolve:
        why = "cannot resolve the host of " + shown + ": " + h.failure_text + "; check base_url";
        break;
      case F::TooLarge:
        kind = ErrorKind::BadResponse;
        why = "the answer from " + shown + " is larger than max_response_bytes = " +
              std::to_string(o_.max_response_bytes);
        break;
      case F::Other:
        why = "request to " + shown + " failed: " + h.failure_text;
        break;
    }
    if (h.failure == F::None) {
      if (h.status == 200) {
        ChatAnswer a;
        try {
          a = parse_chat_response(h.body);
        } catch (const LlmError& e) {
          fail(e.kind(), std::string(e.what()) + " from " + shown, 200, since(t0));
        }
        a.content = redact(a.content);
        a.key = key;
        a.attempts = attempt;
        a.seconds = since(t0);
        meter_.live_answer(a.usage, a.seconds);
        return a;
      }
      kind = ErrorKind::Http;
      why = "HTTP " + std::to_string(h.status) + " from " + shown +
            (h.body.empty() ? std::string() : ": " + error_excerpt(h.body)) + hint_for_status(h.status, o_);
      retry = retryable_status(h.status);
      wait = parse_retry_after(h.retry_after, std::time(nullptr));
    }
    const std::string tries = " (" + std::to_string(attempt) + (attempt == 1 ? " attempt)" : " attempts)");
    if (!retry || attempt > o_.retries) fail(kind, why + tries, static_cast<int>(h.status), since(t0));
    double delay;
    {
      std::lock_guard<std::mutex> lock(rng_mu_);
      delay = backoff_delay(policy, attempt - 1, jitter_);
    }
    if (wait) {
      if (*wait > o_.max_retry_after_s)
        fail(kind, why + "; the server asks to wait " + std::to_string(static_cast<int64_t>(std::ceil(*wait))) +
                       " s (Retry-After), more than max_retry_after = " +
                       std::to_string(static_cast<int64_t>(o_.max_retry_after_s)) + " s" + tries,
             static_cast<int>(h.status), since(t0));
      delay = std::max(delay, *wait);
    }
    meter_.retry();
    std::this_thread::sleep_for(std::chrono::duration<double>(delay));
  }
}

}  // namespace aoc::llm
