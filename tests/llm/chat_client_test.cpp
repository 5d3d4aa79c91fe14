// The chat client against a real chat-completions server started by each test: answers,
// retries with backoff and Retry-After, timeouts, refused connections, malformed and
// oversized answers, the concurrency limit, accounting, the cache and replay, and the
// API key kept out of every message and file.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <future>
#include <thread>

#include "llm/chat_client.h"
#include "llm_test_support.h"

namespace aoc::llm {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

ChatRequest hello(uint64_t seed = 1) {
  ChatRequest r;
  r.messages = {{"system", "You write AscendC kernels."}, {"user", "Say hello."}};
  r.seed = seed;
  return r;
}

// Expects `f` to throw LlmError of `kind`; returns it.
template <class F>
LlmError expect_error(F&& f, ErrorKind kind) {
  try {
    f();
  } catch (const LlmError& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    return e;
  }
  ADD_FAILURE() << "no LlmError thrown";
  return LlmError(ErrorKind::Config, "none");
}

TEST(ChatClient, AnswersCarryTextUsageAndCost) {
  ChatServer server;
  server.script({answer("hello there")});
  ScratchDir dir("client");
  LlmOptions o = testing::fast_options(server.base_url(), dir.path());
  o.prompt_price_per_million = 2.0;
  o.completion_price_per_million = 8.0;
  o.top_p = 0.9;
  ChatClient c(o, ApiKey::from_value("sk-test-0123456789abcdef"));
  const ChatAnswer a = c.complete(hello(7));
  EXPECT_EQ(a.content, "hello there");
  EXPECT_EQ(a.finish_reason, "stop");
  EXPECT_EQ(a.model, "test-model");
  EXPECT_FALSE(a.from_cache);
  EXPECT_EQ(a.attempts, 1);
  ASSERT_TRUE(a.usage.reported);

  const auto req = server.requests().at(0);
  EXPECT_EQ(req["model"], "test-model");
  EXPECT_EQ(req["messages"].size(), 2u);
  EXPECT_EQ(req["messages"][1]["content"], "Say hello.");
  EXPECT_EQ(req["seed"], 7);
  EXPECT_DOUBLE_EQ(req["temperature"].get<double>(), 0.7);
  EXPECT_DOUBLE_EQ(req["top_p"].get<double>(), 0.9);
  EXPECT_EQ(req["max_tokens"], 512);
  EXPECT_EQ(req["stream"], false);
  EXPECT_EQ(server.authorization_headers().at(0), "Bearer sk-test-0123456789abcdef");

  const UsageTotals t = c.totals();
  EXPECT_EQ(t.requests, 1);
  EXPECT_EQ(t.prompt_tokens, a.usage.prompt_tokens);
  EXPECT_EQ(t.completion_tokens, a.usage.completion_tokens);
  EXPECT_NEAR(t.cost, (a.usage.prompt_tokens * 2.0 + a.usage.completion_tokens * 8.0) / 1e6, 1e-15);
}

TEST(ChatClient, SeedAndTokenFieldFollowTheSettings) {
  ChatServer server;
  ScratchDir dir("client");
  LlmOptions o = testing::fast_options(server.base_url(), dir.path());
  o.send_seed = false;
  o.max_tokens_field = "max_completion_tokens";
  o.cache = false;
  ChatClient c(o, ApiKey());
  c.complete(hello());
  const auto req = server.requests().at(0);
  EXPECT_FALSE(req.contains("seed"));
  EXPECT_FALSE(req.contains("max_tokens"));
  EXPECT_EQ(req["max_completion_tokens"], 512);
  EXPECT_EQ(server.authorization_headers().at(0), "") << "no key configured: no Authorization header";
}

TEST(ChatClient, RateLimitThenSuccessWaitsForRetryAfter) {
  ChatServer server;
  Reply limited;
  limited.status = 429;
  limited.body = R"({"error":{"message":"slow down"}})";
  limited.retry_after = "1";
  server.script({limited, answer("after the wait")});
  ScratchDir dir("client");
  ChatClient c(testing::fast_options(server.base_url(), dir.path()), ApiKey());
  const auto t0 = Clock::now();
  const ChatAnswer a = c.complete(hello());
  const double took = seconds_since(t0);
  EXPECT_EQ(a.content, "after the wait");
  EXPECT_EQ(a.attempts, 2);
  EXPECT_GE(took, 0.95) << "Retry-After: 1 must be honoured over the 10 ms backoff";
  EXPECT_LT(took, 5.0);
  EXPECT_EQ(c.totals().retries, 1);
  EXPECT_EQ(server.request_count(), 2u);
}

TEST(ChatClient, RetryAfterBeyondTheLimitFailsAtOnce) {
  ChatServer server;
  Reply limited;
  limited.status = 429;
  limited.retry_after = "3600";
  server.set_fallback(limited);
  ScratchDir dir("client");
  LlmOptions o = testing::fast_options(server.base_url(), dir.path());
  o.max_retry_after_s = 5;
  ChatClient c(o, ApiKey());
  const auto t0 = Clock::now();
  const LlmError e = expect_error([&] { c.complete(hello()); }, ErrorKind::Http);
  EXPECT_LT(seconds_since(t0), 2.0);
  EXPECT_EQ(e.http_status(), 429);
  EXPECT_NE(std::string(e.what()).find("Retry-After"), std::string::npos) << e.what();
  EXPECT_EQ(server.request_count(), 1u);
}

TEST(ChatClient, ServerErrorsAreRetriedThenReported) {
  ChatServer server;
  Reply failing;
  failing.status = 503;
  failing.body = "upstream overloaded";
  server.script({failing, answer("recovered")});
  ScratchDir dir("client");
  ChatClient c(testing::fast_options(server.base_url(), dir.path()), ApiKey());
  EXPECT_EQ(c.complete(hello(1)).content, "recovered");

  server.set_fallback(failing);
  const LlmError e = expect_error([&] { c.complete(hello(2)); }, ErrorKind::Http);
  EXPECT_EQ(e.http_status(), 503);
  const std::string msg = e.what();
  EXPECT_NE(msg.find("HTTP 503"), std::string::npos) << msg;
  EXPECT_NE(msg.find("upstream overloaded"), std::string::npos) << msg;
  EXPECT_NE(msg.find("3 attempts"), std::string::npos) << msg;  // retries = 2
  EXPECT_EQ(server.request_count(), 2u + 3u);
  EXPECT_EQ(c.totals().failed, 1);
}

TEST(ChatClient, ClientErrorsAreNotRetriedAndSayWhatToFix) {
  ChatServer server;
  Reply bad;
  bad.status = 400;
  bad.body = R"({"error":{"message":"Unrecognized request argument: seed"}})";
  server.set_fallback(bad);
  ScratchDir dir("client");
  ChatClient c(testing::fast_options(server.base_url(), dir.path()), ApiKey());
  const LlmError e = expect_error([&] { c.complete(hello()); }, ErrorKind::Http);
  EXPECT_NE(std::string(e.what()).find("send_seed = false"), std::string::npos) << e.what();
  EXPECT_EQ(server.request_count(), 1u);
}

TEST(ChatClient, HangPastTheTimeoutIsATimeout) {
  ChatServer server;
  Reply hang = answer("too late");
  hang.delay_s = 10;
  server.set_fallback(hang);
  ScratchDir dir("client");
  LlmOptions o = testing::fast_options(server.base_url(), dir.path());
  o.timeout_s = 0.3;
  o.retries = 1;
  ChatClient c(o, ApiKey());
  const auto t0 = Clock::now();
  const LlmError e = expect_error([&] { c.complete(hello()); }, ErrorKind::Timeout);
  const double took = seconds_since(t0);
  EXPECT_GE(took, 0.55);
  EXPECT_LT(took, 3.0);
  EXPECT_NE(std::string(e.what()).find("--llm-timeout"), std::string::npos) << e.what();
  EXPECT_EQ(server.request_count(), 2u);
}

TEST(ChatClient, ConnectionRefusedIsRetriedThenReported) {
  int port;
  {
    ChatServer gone;
    port = gone.port();
  }
  ScratchDir dir("client");
  ChatClient c(testing::fast_options("http://127.0.0.1:" + std::to_string(port) + "/v1", dir.path()), ApiKey());
  const LlmError e = expect_error([&] { c.complete(hello()); }, ErrorKind::Connect);
  const std::string msg = e.what();
  EXPECT_NE(msg.find("is the server running"), std::string::npos) << msg;
  EXPECT_NE(msg.find("3 attempts"), std::string::npos) << msg;
  EXPECT_EQ(c.totals().retries, 2);
}

TEST(ChatClient, MalformedAndIncompleteAnswersAreBadResponses) {
  ChatServer server;
  ScratchDir dir("client");
  ChatClient c(testing::fast_options(server.base_url(), dir.path()), ApiKey());
  const std::vector<std::pair<std::string, std::string>> bodies = {
      {"{\"choices\": [", "malformed JSON"},
      {"[1, 2]", "not a JSON object"},
      {R"({"choices": []})", "no choices"},
      {R"({"choices": [{"text": "legacy completion"}]})", "no message"},
      {R"({"choices": [{"message": {"content": 42}}]})", "not text"},
      {R"({"error": {"message": "model crashed"}})", "reports an error"}};
  uint64_t seed = 100;
  for (const auto& [body, what] : bodies) {
    Reply r;
    r.body = body;
    server.script({r});
    const size_t before = server.request_count();
    const LlmError e = expect_error([&] { c.complete(hello(seed++)); }, ErrorKind::BadResponse);
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    EXPECT_EQ(server.request_count(), before + 1) << "a bad answer is not retried: " << body;
  }
  EXPECT_EQ(testing::count_files(dir.path()), 0u) << "failed requests are not cached";
}

TEST(ChatClient, OversizedAnswerIsRefused) {
  ChatServer server;
  server.script({answer(std::string(300000, 'x'))});
  ScratchDir dir("client");
  LlmOptions o = testing::fast_options(server.base_url(), dir.path());
  o.max_response_bytes = 64 * 1024;
  ChatClient c(o, ApiKey());
  const LlmError e = expect_error([&] { c.complete(hello()); }, ErrorKind::BadResponse);
  EXPECT_NE(std::string(e.what()).find("max_response_bytes"), std::string::npos) << e.what();
}

TEST(ChatClient, AnswersWithoutUsageAreCountedAsMissing) {
  ChatServer server;
  Reply r = answer("no usage here");
  r.usage = false;
  server.script({r});
  ScratchDir dir("client");
  ChatClient c(testing::fast_options(server.base_url(), dir.path()), ApiKey());
  EXPECT_FALSE(c.complete(hello()).usage.reported);
  EXPECT_EQ(c.totals().usage_missing, 1);
  EXPECT_EQ(c.totals().prompt_tokens, 0);
}

TEST(ChatClient, ConcurrencyLimitHoldsAcrossThreads) {
  ChatServer server;
  Reply slow = answer("slow");
  slow.delay_s = 0.15;
  server.set_fallback(slow);
  ScratchDir dir("client");
  LlmOptions o = testing::fast_options(server.base_url(), dir.path());
  o.concurrency = 2;
  ChatClient c(o, ApiKey());
  std::vector<std::future<ChatAnswer>> fs;
  for (uint64_t i = 0; i < 6; ++i) fs.push_back(std::async(std::launch::async, [&c, i] { return c.complete(hello(i)); }));
  for (auto& f : fs) EXPECT_EQ(f.get().content, "slow");
  EXPECT_EQ(server.request_count(), 6u);
  EXPECT_EQ(server.max_in_flight(), 2);
}

TEST(ChatClient, CacheAnswersRepeatsAndReplayNeedsNoServer) {
  ScratchDir dir("client");
  std::string base;
  ChatAnswer live;
  {
    ChatServer server;
    base = server.base_url();
    server.script({answer("first answer"), answer("second answer")});
    ChatClient c(testing::fast_options(base, dir.path()), ApiKey());
    live = c.complete(hello(1));
    const ChatAnswer again = c.complete(hello(1));
    EXPECT_TRUE(again.from_cache);
    EXPECT_EQ(again.content, "first answer");
    EXPECT_EQ(again.key, live.key);
    EXPECT_EQ(c.complete(hello(2)).content, "second answer") << "another seed is another request";
    EXPECT_EQ(server.request_count(), 2u);
    EXPECT_EQ(c.totals().cache_hits, 1);
    EXPECT_EQ(c.totals().cached_prompt_tokens, live.usage.prompt_tokens);
  }
  // The server is gone: replay answers from the cache alone, a miss is an error.
  LlmOptions o = testing::fast_options(base, dir.path());
  o.replay = true;
  ChatClient replay(o, ApiKey());
  const ChatAnswer r = replay.complete(hello(1));
  EXPECT_TRUE(r.from_cache);
  EXPECT_EQ(r.content, live.content);
  EXPECT_EQ(r.finish_reason, live.finish_reason);
  EXPECT_EQ(r.usage.prompt_tokens, live.usage.prompt_tokens);
  const LlmError e = expect_error([&] { replay.complete(hello(3)); }, ErrorKind::ReplayMiss);
  EXPECT_NE(std::string(e.what()).find("without --llm-replay"), std::string::npos) << e.what();
  EXPECT_EQ(replay.totals().requests, 0);
}

TEST(ChatClient, ReplayMissMakesNoNetworkCall) {
  ChatServer server;
  ScratchDir dir("client");
  LlmOptions o = testing::fast_options(server.base_url(), dir.path());
  o.replay = true;
  ChatClient c(o, ApiKey());
  expect_error([&] { c.complete(hello()); }, ErrorKind::ReplayMiss);
  EXPECT_EQ(server.request_count(), 0u);
}

TEST(ChatClient, CorruptCacheEntryIsRefetchedOrReportedInReplay) {
  ChatServer server;
  server.set_fallback(answer("fresh"));
  ScratchDir dir("client");
  LlmOptions o = testing::fast_options(server.base_url(), dir.path());
  {
    ChatClient c(o, ApiKey());
    c.complete(hello());
    const std::filesystem::path p = ResponseCache(dir.path()).entry_path(c.complete(hello()).key);
    std::ofstream(p, std::ios::trunc) << "{ not json";
  }
  o.replay = true;
  ChatClient replay(o, ApiKey());
  const LlmError e = expect_error([&] { replay.complete(hello()); }, ErrorKind::ReplayMiss);
  EXPECT_NE(std::string(e.what()).find("is not JSON"), std::string::npos) << e.what();
  o.replay = false;
  ChatClient c(o, ApiKey());
  EXPECT_EQ(c.complete(hello()).content, "fresh");
  EXPECT_TRUE(c.complete(hello()).from_cache) << "the entry was written again";
}

TEST(ChatClient, ApiKeyNeverInMessagesOrCacheFiles) {
  const std::string key = "sk-live-SECRETSECRET-42424242";
  ChatServer server;
  Reply refused;
  refused.status = 401;
  refused.body = R"({"error":{"message":"Incorrect API key provided: )" + key + R"(. Also sk-live-SECRETS***"}})";
  server.script({answer("the key is not in this answer"), refused});
  ScratchDir dir("client");
  ::setenv("AOC_TEST_LLM_KEY", key.c_str(), 1);
  LlmOptions o = testing::fast_options(server.base_url(), dir.path());
  o.api_key_env = "AOC_TEST_LLM_KEY";
  ChatClient c(o, ApiKey::from_environment(o.api_key_env));
  c.complete(hello(1));
  const LlmError e = expect_error([&] { c.complete(hello(2)); }, ErrorKind::Http);
  const std::string msg = e.what();
  EXPECT_EQ(msg.find("SECRETSECRET"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("sk-live-SECRETS"), std::string::npos) << msg;
  EXPECT_NE(msg.find("[redacted]"), std::string::npos) << msg;
  EXPECT_NE(msg.find("$AOC_TEST_LLM_KEY"), std::string::npos) << msg;
  EXPECT_EQ(server.authorization_headers().at(0), "Bearer " + key);
  EXPECT_GT(testing::count_files(dir.path()), 0u);
  EXPECT_TRUE(testing::files_containing(dir.path(), "SECRETSECRET").empty());
  EXPECT_EQ(to_json(o).dump().find("SECRET"), std::string::npos);
  ::unsetenv("AOC_TEST_LLM_KEY");
}

TEST(ChatClient, MissingKeyVariableIsAConfigError) {
  ::unsetenv("AOC_TEST_UNSET_KEY");
  const LlmError e = expect_error([] { ApiKey::from_environment("AOC_TEST_UNSET_KEY"); }, ErrorKind::Config);
  EXPECT_NE(std::string(e.what()).find("AOC_TEST_UNSET_KEY"), std::string::npos);
}

TEST(ChatClient, PromptOverTheLimitIsRefusedBeforeSending) {
  ChatServer server;
  ScratchDir dir("client");
  LlmOptions o = testing::fast_options(server.base_url(), dir.path());
  o.max_prompt_chars = 10;
  ChatClient c(o, ApiKey());
  const LlmError e = expect_error([&] { c.complete(hello()); }, ErrorKind::Config);
  EXPECT_NE(std::string(e.what()).find("max_prompt_chars"), std::string::npos);
  EXPECT_EQ(server.request_count(), 0u);
}

TEST(ChatClient, EndpointJoinsBaseUrlAndPath) {
  ScratchDir dir("client");
  LlmOptions o = testing::fast_options("http://h:1/v1/", dir.path());
  EXPECT_EQ(ChatClient(o, ApiKey()).endpoint(), "http://h:1/v1/chat/completions");
  o.base_url = "https://h/openai/chat/completions";
  EXPECT_EQ(ChatClient(o, ApiKey()).endpoint(), "https://h/openai/chat/completions");
  EXPECT_EQ(display_url("https://user:pw@h.example/v1?key=abc"), "https://h.example/v1");
}

}  // namespace
}  // namespace aoc::llm
