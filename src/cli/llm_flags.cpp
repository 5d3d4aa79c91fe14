#include "cli/llm_flags.h"

#include <sstream>

namespace aoc::cli {

void add_llm_flags(CLI::App* cmd, LlmFlags& f) {
  cmd->add_option("--llm-config", f.config, "TOML file of LLM settings: endpoint, model, key variable, sampling, "
                                            "timeouts, retries, prices (docs/llm.md)");
  cmd->add_option("--llm-base-url", f.base_url, "Endpoint base URL, e.g. http://127.0.0.1:8000/v1 (overrides the file)");
  cmd->add_option("--llm-model", f.model, "Model name (overrides the file)");
  cmd->add_option("--llm-api-key-env", f.api_key_env, "Environment variable that holds the API key");
  cmd->add_option("--llm-temperature", f.temperature, "Sampling temperature");
  cmd->add_option("--llm-max-tokens", f.max_tokens, "Largest answer, in tokens");
  cmd->add_option("--llm-seed", f.seed, "Base seed of the requests");
  cmd->add_option("--llm-timeout", f.timeout, "Seconds a request may take, generation included");
  cmd->add_option("--llm-retries", f.retries, "Extra attempts after 429, 5xx, connection failures and timeouts");
  cmd->add_option("--llm-concurrency", f.concurrency, "Requests in flight at once");
  cmd->add_flag("--llm-replay", f.replay, "Answer only from the response cache (no network); a request not in "
                                          "it is an error");
  cmd->add_flag("--llm-no-cache", f.no_cache, "Neither read nor write the response cache");
}

aoc::llm::LlmOptions resolve_llm_options(const LlmFlags& f, const std::filesystem::path& cache_root) {
  aoc::llm::LlmOptions o;
  if (!f.config.empty()) o = aoc::llm::load_llm_options(f.config, o);
  if (!f.base_url.empty()) o.base_url = f.base_url;
  if (!f.model.empty()) o.model = f.model;
  if (!f.api_key_env.empty()) o.api_key_env = f.api_key_env;
  if (f.temperature) o.temperature = *f.temperature;
  if (f.max_tokens) o.max_tokens = *f.max_tokens;
  if (f.seed) o.seed = *f.seed;
  if (f.timeout) o.timeout_s = *f.timeout;
  if (f.retries) o.retries = *f.retries;
  if (f.concurrency) o.concurrency = *f.concurrency;
  if (f.replay) o.replay = true;
  if (f.no_cache) o.cache = false;
  if (o.cache_dir.empty()) o.cache_dir = cache_root / "llm";
  aoc::llm::validate(o);
  return o;
}

std::vector<std::string> llm_flag_args(const LlmFlags& f) {
  std::vector<std::string> out;
  auto text = [&](const char* name, const std::string& v) {
    if (!v.empty()) out.insert(out.end(), {name, v});
  };
  auto number = [&](const char* name, const auto& v) {
    if (v) {
      std::ostringstream os;
      os.precision(17);
      os << *v;
      out.insert(out.end(), {name, os.str()});
    }
  };
  text("--llm-config", f.config.empty() ? "" : std::filesystem::absolute(f.config).string());
  text("--llm-base-url", f.base_url);
  text("--llm-model", f.model);
  text("--llm-api-key-env", f.api_key_env);
  number("--llm-temperature", f.temperature);
  number("--llm-max-tokens", f.max_tokens);
  number("--llm-seed", f.seed);
  number("--llm-timeout", f.timeout);
  number("--llm-retries", f.retries);
  number("--llm-concurrency", f.concurrency);
  if (f.replay) out.push_back("--llm-replay");
  if (f.no_cache) out.push_back("--llm-no-cache");
  return out;
}

}  // namespace aoc::cli
