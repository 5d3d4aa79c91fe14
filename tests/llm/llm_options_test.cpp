// Settings files of the LLM client: every key read, mistakes named with file, line and
// fix, secrets refused; backoff delays and Retry-After values; key redaction.
#include <gtest/gtest.h>

#include <ctime>
#include <fstream>

#include "llm/api_key.h"
#include "llm/backoff.h"
#include "llm/llm_error.h"
#include "llm/llm_options.h"
#include "test_dirs.h"

namespace aoc::llm {
namespace {

using testing::ScratchDir;

std::filesystem::path write(const ScratchDir& d, const std::string& text) {
  const auto p = d.path() / "llm.toml";
  std::ofstream(p) << text;
  return p;
}

std::string config_error(const std::filesystem::path& p) {
  try {
    load_llm_options(p);
  } catch (const LlmError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Config);
    return e.what();
  }
  ADD_FAILURE() << "accepted " << p;
  return "";
}

TEST(LlmOptions, EveryKeyIsRead) {
  ScratchDir d("opts");
  const auto p = write(d, R"(
base_url = "https://api.example.com/v1"
model = "coder-large"
api_key_env = "EXAMPLE_API_KEY"
temperature = 0.2
top_p = 0.95
max_tokens = 8192
max_tokens_field = "max_completion_tokens"
seed = 42
send_seed = false
connect_timeout = 5
timeout = 120.5
retries = 4
backoff_initial = 0.5
backoff_max = 30
max_retry_after = 90
concurrency = 3
max_response_bytes = 1048576
prompt_price_per_million = 1.25
completion_price_per_million = 10
cache = true
replay = true
cache_dir = "answers"
max_prompt_chars = 1000
max_answer_chars = 2000
)");
  const LlmOptions o = load_llm_options(p);
  EXPECT_EQ(o.base_url, "https://api.example.com/v1");
  EXPECT_EQ(o.model, "coder-large");
  EXPECT_EQ(o.api_key_env, "EXAMPLE_API_KEY");
  EXPECT_DOUBLE_EQ(o.temperature, 0.2);
  EXPECT_DOUBLE_EQ(*o.top_p, 0.95);
  EXPECT_EQ(o.max_tokens, 8192);
  EXPECT_EQ(o.max_tokens_field, "max_completion_tokens");
  EXPECT_EQ(o.seed, 42u);
  EXPECT_FALSE(o.send_seed);
  EXPECT_DOUBLE_EQ(o.connect_timeout_s, 5);
  EXPECT_DOUBLE_EQ(o.timeout_s, 120.5);
  EXPECT_EQ(o.retries, 4);
  EXPECT_DOUBLE_EQ(o.backoff_initial_s, 0.5);
  EXPECT_DOUBLE_EQ(o.backoff_max_s, 30);
  EXPECT_DOUBLE_EQ(o.max_retry_after_s, 90);
  EXPECT_EQ(o.concurrency, 3);
  EXPECT_EQ(o.max_response_bytes, 1048576u);
  EXPECT_DOUBLE_EQ(o.prompt_price_per_million, 1.25);
  EXPECT_DOUBLE_EQ(o.completion_price_per_million, 10);
  EXPECT_TRUE(o.replay);
  EXPECT_EQ(o.cache_dir, std::filesystem::absolute(d.path()) / "answers") << "relative to the file's folder";
  EXPECT_EQ(o.max_prompt_chars, 1000u);
  EXPECT_EQ(o.max_answer_chars, 2000u);
  EXPECT_NO_THROW(validate(o));
}

TEST(LlmOptions, MistakesAreNamedWithLineAndFix) {
  ScratchDir d("opts");
  std::string e = config_error(write(d, "model = \"m\"\ntemprature = 0.5\n"));
  EXPECT_NE(e.find("llm.toml:2: temprature: unknown setting"), std::string::npos) << e;
  e = config_error(write(d, "model = 3\n"));
  EXPECT_NE(e.find("model: expected a string"), std::string::npos) << e;
  e = config_error(write(d, "retries = -1\n"));
  EXPECT_NE(e.find("at least 0"), std::string::npos) << e;
  e = config_error(write(d, "model = \"m\"\nmodel = \"n\"\n"));
  EXPECT_NE(e.find("TOML syntax error"), std::string::npos) << e;
  e = config_error(d.path() / "absent.toml");
  EXPECT_NE(e.find("no such file"), std::string::npos) << e;
}

TEST(LlmOptions, SecretsAreRefusedWithoutBeingEchoed) {
  ScratchDir d("opts");
  std::string e = config_error(write(d, "model = \"m\"\napi_key = \"sk-abcdefghijklmnop\"\n"));
  EXPECT_NE(e.find("environment variable"), std::string::npos) << e;
  EXPECT_EQ(e.find("sk-abcdefgh"), std::string::npos) << e;
  e = config_error(write(d, "model = \"m\"\napi_key_env = \"sk-abcdefghijklmnop\"\n"));
  EXPECT_NE(e.find("not the key itself"), std::string::npos) << e;
  EXPECT_EQ(e.find("sk-abcdefgh"), std::string::npos) << e;
}

TEST(LlmOptions, ValidationSaysWhatToChange) {
  LlmOptions o;
  auto invalid = [](const LlmOptions& x) {
    try {
      validate(x);
    } catch (const LlmError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(invalid(o).find("--llm-model"), std::string::npos);
  o.model = "m";
  EXPECT_EQ(invalid(o), "");
  o.base_url = "127.0.0.1:8000/v1";
  EXPECT_NE(invalid(o).find("http://"), std::string::npos);
  o.base_url = "http://127.0.0.1:8000/v1";
  o.temperature = 3;
  EXPECT_NE(invalid(o).find("temperature"), std::string::npos);
  o.temperature = 0;
  o.cache = false;
  o.replay = true;
  EXPECT_NE(invalid(o).find("replay"), std::string::npos);
}

TEST(Backoff, DelaysDoubleUpToTheCapWithSeededJitter) {
  const BackoffPolicy p{1.0, 5.0};
  aoc::base::Xoshiro256 a(7), b(7);
  for (int retry = 0; retry < 6; ++retry) {
    const double base = std::min(5.0, std::ldexp(1.0, retry));
    const double d = backoff_delay(p, retry, a);
    EXPECT_GE(d, 0.5 * base);
    EXPECT_LT(d, base);
    EXPECT_DOUBLE_EQ(d, backoff_delay(p, retry, b)) << "same seed, same delays";
  }
}

TEST(Backoff, RetryAfterInSecondsOrAsADate) {
  const std::time_t now = 1700000000;  // Tue, 14 Nov 2023 22:13:20 GMT
  EXPECT_DOUBLE_EQ(*parse_retry_after("7", now), 7.0);
  EXPECT_DOUBLE_EQ(*parse_retry_after(" 0.25 ", now), 0.25);
  EXPECT_DOUBLE_EQ(*parse_retry_after("Tue, 14 Nov 2023 22:13:50 GMT", now), 30.0);
  EXPECT_DOUBLE_EQ(*parse_retry_after("Tue, 14 Nov 2023 22:00:00 GMT", now), 0.0);
  EXPECT_FALSE(parse_retry_after("", now));
  EXPECT_FALSE(parse_retry_after("soon", now));
}

TEST(ApiKey, RedactionHidesTheKeyAndLongPiecesOfIt) {
  const ApiKey k = ApiKey::from_value("sk-proj-ABCDEFGHIJKLMNOP");
  EXPECT_EQ(k.redact("key sk-proj-ABCDEFGHIJKLMNOP refused"), "key [redacted] refused");
  EXPECT_EQ(k.redact("masked sk-proj-ABC***MNOP"), "masked [redacted]***MNOP");
  EXPECT_EQ(k.redact("tail ...GHIJKLMNOP"), "tail ...[redacted]");
  EXPECT_EQ(k.redact("short ABCD is fine"), "short ABCD is fine");
  EXPECT_EQ(ApiKey().redact("nothing to hide"), "nothing to hide");
}

}  // namespace
}  // namespace aoc::llm
