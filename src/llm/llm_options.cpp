#include "llm/llm_options.h"

#include <cmath>
#include <set>
#include <sstream>

#include <toml++/toml.h>

#include "llm/llm_error.h"

namespace aoc::llm {
namespace fs = std::filesystem;

namespace {

// Reads typed values of one TOML table, each error naming the file, line and key.
class Reader {
 public:
  explicit Reader(const fs::path& file) : file_(file.string()) {}

  [[noreturn]] void fail(const std::string& key, const toml::node& at, const std::string& what) const {
    std::ostringstream os;
    os << file_ << ":" << at.source().begin.line << ": " << key << ": " << what;
    throw LlmError(ErrorKind::Config, os.str());
  }
  std::string str(const toml::node& n, const std::string& key) const {
    if (auto v = n.value<std::string>(); v && n.is_string()) return *v;
    fail(key, n, "expected a string in quotes");
  }
  double num(const toml::node& n, const std::string& key) const {
    if (n.is_integer()) return static_cast<double>(*n.value<int64_t>());
    if (n.is_floating_point()) return *n.value<double>();
    fail(key, n, "expected a number");
  }
  int64_t integer(const toml::node& n, const std::string& key, int64_t lo) const {
    if (!n.is_integer()) fail(key, n, "expected an integer");
    const int64_t v = *n.value<int64_t>();
    if (v < lo) fail(key, n, "must be at least " + std::to_string(lo));
    return v;
  }
  bool boolean(const toml::node& n, const std::string& key) const {
    if (!n.is_boolean()) fail(key, n, "expected true or false");
    return *n.value<bool>();
  }

 private:
  std::string file_;
};

bool is_env_name(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

}  // namespace

LlmOptions load_llm_options(const fs::path& file, LlmOptions o) {
  if (!fs::is_regular_file(file))
    throw LlmError(ErrorKind::Config, file.string() + ": no such file; --llm-config names a TOML file of LLM "
                                                      "settings (see docs/llm.md for examples)");
  toml::table root;
  try {
    root = toml::parse_file(file.string());
  } catch (const toml::parse_error& e) {
    std::ostringstream os;
    os << file.string() << ":" << e.source().begin.line << ": TOML syntax error: " << e.description();
    throw LlmError(ErrorKind::Config, os.str());
  }
  const Reader r(file);
  static const std::set<std::string> secret_like = {"api_key", "apikey", "key", "token", "secret", "password",
                                                   "authorization", "bearer"};
  for (const auto& [k, node] : root) {
    const std::string key(k.str());
    if (secret_like.count(key))
      r.fail(key, node, "a secret must not be stored in a file; put it in an environment variable and name that "
                        "variable with api_key_env = \"NAME\"");
    if (key == "base_url") o.base_url = r.str(node, key);
    else if (key == "model") o.model = r.str(node, key);
    else if (key == "api_key_env") {
      // The value is a variable name; never echo it back, it might be a pasted key.
      o.api_key_env = r.str(node, key);
      if (!is_env_name(o.api_key_env))
        r.fail(key, node, "must be the NAME of an environment variable (letters, digits, _) that holds the key, "
                          "not the key itself");
    } else if (key == "temperature") o.temperature = r.num(node, key);
    else if (key == "top_p") o.top_p = r.num(node, key);
    else if (key == "max_tokens") o.max_tokens = r.integer(node, key, 1);
    else if (key == "max_tokens_field") o.max_tokens_field = r.str(node, key);
    else if (key == "seed") o.seed = static_cast<uint64_t>(r.integer(node, key, 0));
    else if (key == "send_seed") o.send_seed = r.boolean(node, key);
    else if (key == "connect_timeout") o.connect_timeout_s = r.num(node, key);
    else if (key == "timeout") o.timeout_s = r.num(node, key);
    else if (key == "retries") o.retries = static_cast<int>(r.integer(node, key, 0));
    else if (key == "backoff_initial") o.backoff_initial_s = r.num(node, key);
    else if (key == "backoff_max") o.backoff_max_s = r.num(node, key);
    else if (key == "max_retry_after") o.max_retry_after_s = r.num(node, key);
    else if (key == "concurrency") o.concurrency = static_cast<int>(r.integer(node, key, 1));
    else if (key == "max_response_bytes") o.max_response_bytes = static_cast<size_t>(r.integer(node, key, 1024));
    else if (key == "prompt_price_per_million") o.prompt_price_per_million = r.num(node, key);
    else if (key == "completion_price_per_million") o.completion_price_per_million = r.num(node, key);
    else if (key == "cache") o.cache = r.boolean(node, key);
    else if (key == "replay") o.replay = r.boolean(node, key);
    else if (key == "cache_dir") {
      fs::path d = r.str(node, key);
      o.cache_dir = d.is_relative() ? fs::absolute(file).parent_path() / d : d;
    } else if (key == "max_prompt_chars") o.max_prompt_chars = static_cast<size_t>(r.integer(node, key, 1));
    else if (key == "max_answer_chars") o.max_answer_chars = static_cast<size_t>(r.integer(node, key, 1));
    else
      r.fail(key, node, "unknown setting; known: base_url, model, api_key_env, temperature, top_p, max_tokens, "
                        "max_tokens_field, seed, send_seed, connect_timeout, timeout, retries, backoff_initial, "
                        "backoff_max, max_retry_after, concurrency, max_response_bytes, prompt_price_per_million, "
                        "completion_price_per_million, cache, replay, cache_dir, max_prompt_chars, max_answer_chars");
  }
  return o;
}

void validate(const LlmOptions& o) {
  auto bad = [](const std::string& what) { throw LlmError(ErrorKind::Config, what); };
  if (o.model.empty()) bad("no model set: add model = \"NAME\" to the --llm-config file or pass --llm-model");
  if (o.base_url.rfind("http://", 0) != 0 && o.base_url.rfind("https://", 0) != 0)
    bad("base_url " + display_url(o.base_url) + " must start with http:// or https:// (e.g. http://127.0.0.1:8000/v1)");
  if (!o.api_key_env.empty() && !is_env_name(o.api_key_env))
    bad("api_key_env must be the NAME of an environment variable that holds the key, not the key itself");
  if (!(o.temperature >= 0 && o.temperature <= 2)) bad("temperature must be in [0, 2]");
  if (o.top_p && !(*o.top_p > 0 && *o.top_p <= 1)) bad("top_p must be in (0, 1]");
  if (o.max_tokens < 1) bad("max_tokens must be at least 1");
  if (o.max_tokens_field != "max_tokens" && o.max_tokens_field != "max_completion_tokens")
    bad("max_tokens_field must be \"max_tokens\" or \"max_completion_tokens\"");
  if (!(o.connect_timeout_s > 0) || !(o.timeout_s > 0)) bad("connect_timeout and timeout must be positive seconds");
  if (o.retries < 0 || o.retries > 20) bad("retries must be between 0 and 20");
  if (!(o.backoff_initial_s >= 0) || !(o.backoff_max_s >= o.backoff_initial_s))
    bad("backoff_initial must be >= 0 and backoff_max >= backoff_initial (seconds)");
  if (!(o.max_retry_after_s >= 0)) bad("max_retry_after must be >= 0 seconds");
  if (o.concurrency < 1 || o.concurrency > 256) bad("concurrency must be between 1 and 256");
  if (!(o.prompt_price_per_million >= 0) || !(o.completion_price_per_million >= 0)) bad("prices must be >= 0");
  if (o.replay && !o.cache) bad("replay reads answers from the cache; it cannot be combined with cache = false");
}

std::string display_url(const std::string& url) {
  std::string u = url;
  if (const auto q = u.find_first_of("?#"); q != std::string::npos) u.erase(q);
  const auto scheme = u.find("://");
  const size_t host_from = scheme == std::string::npos ? 0 : scheme + 3;
  const auto slash = u.find('/', host_from);
  const auto at = u.rfind('@', slash == std::string::npos ? std::string::npos : slash);
  if (at != std::string::npos && at >= host_from) u.erase(host_from, at + 1 - host_from);
  return u;
}

nlohmann::json to_json(const LlmOptions& o) {
  nlohmann::json j = {{"base_url", display_url(o.base_url)},
                      {"model", o.model},
                      {"api_key_env", o.api_key_env},
                      {"temperature", o.temperature},
                      {"max_tokens", o.max_tokens},
                      {"seed", o.seed},
                      {"send_seed", o.send_seed},
                      {"timeout", o.timeout_s},
                      {"retries", o.retries},
                      {"concurrency", o.concurrency},
                      {"cache", o.cache},
                      {"replay", o.replay}};
  if (o.top_p) j["top_p"] = *o.top_p;
  return j;
}

}  // namespace aoc::llm
