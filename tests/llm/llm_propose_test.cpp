// `ascendopt llm-propose` and `llm-check` end to end against a real chat-completions
// server started by the test: an answer that does not apply, code that does not compile,
// code with wrong results and a good diff, each through the real evaluator, each failure
// carried into the next prompt; then the same run replayed from the response cache with
// the server stopped gives the same results; the API key is in no file the tool wrote.
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "cli_support.h"
#include "llm/attempt_context.h"
#include "llm_test_support.h"

namespace aoc::llm {
namespace {

using aoc::testing::CliRun;

CliRun run(const std::string& args) {
  // The SoC files of this source tree, wherever the evaluator's sandbox runs.
  ::setenv("ASCENDOPT_HOME", AOC_SOURCE_DIR, 0);
  return aoc::testing::run_ascendopt(args);
}

nlohmann::json json_of(const CliRun& r) {
  const auto at = r.out.find("{\n");
  return nlohmann::json::parse(at == std::string::npos ? std::string("null") : r.out.substr(at), nullptr, false);
}

const std::string kKey = "sk-e2e-KEYKEYKEYKEY-0123456789";

TEST(LlmPropose, FailuresFeedTheNextAttemptAndReplayIsExact) {
  ScratchDir dir("propose");
  testing::write_config(dir.path() / "llm.toml", "AOC_E2E_LLM_KEY");
  std::ofstream(dir.path() / "experience.json")
      << R"([{"title": "Double-buffer the queues", "bottleneck": "MTE2-bound", "diff": "-BUFFER_NUM = 1\n+BUFFER_NUM = 2",
             "effect": "1.4x"}])";
  ::setenv("AOC_E2E_LLM_KEY", kKey.c_str(), 1);
  const std::string common = "llm-propose " AOC_SOURCE_DIR "/ops/elementwise/add --llm-config " +
                             (dir.path() / "llm.toml").string() + " --experience " +
                             (dir.path() / "experience.json").string() +
                             " --attempts 4 --seed 0x5eed --case tiny_fp16 --no-store --timeout 30 --json";
  CliRun first;
  {
    ChatServer server;
    server.script({answer(edit("        AscendC::Mul(zLocal, xLocal, yLocal, TileElems(progress));", kAddLine)),
                   answer(edit(kAddLine, "        AscendC::Add(zLocal, xLocal, yLocal, TileElems(progress))")),
                   answer(edit(kAddLine, "        AscendC::Sub(zLocal, xLocal, yLocal, TileElems(progress));")),
                   answer("Single buffering.\n" + edit("constexpr int32_t BUFFER_NUM = 2;", "constexpr int32_t BUFFER_NUM = 1;"))});
    first = run(common + " --llm-base-url " + server.base_url() + " --out " + (dir.path() / "live").string());
    ASSERT_EQ(first.status, 0) << first.out;
    const auto reqs = server.requests();
    ASSERT_EQ(reqs.size(), 4u);
    for (const auto& h : server.authorization_headers()) EXPECT_EQ(h, "Bearer " + kKey);
    const std::string p1 = reqs[0]["messages"][1]["content"];
    EXPECT_NE(p1.find("### 1. Double-buffer the queues"), std::string::npos);
    EXPECT_NE(p1.find("tiny_fp16 (float16 x=[5] y=[5]): "), std::string::npos) << "the profile of the real evaluation";
    const std::string p2 = reqs[1]["messages"][1]["content"];
    EXPECT_NE(p2.find("(unusable_answer)"), std::string::npos);
    EXPECT_NE(p2.find("search_not_found"), std::string::npos);
    const std::string p3 = reqs[2]["messages"][1]["content"];
    EXPECT_NE(p3.find("(compile_error)"), std::string::npos);
    EXPECT_NE(p3.find("op_kernel/add.cpp:"), std::string::npos) << p3.substr(0, 4000);
    EXPECT_EQ(p3.find(dir.path().string()), std::string::npos) << "no machine paths in prompts";
    const std::string p4 = reqs[3]["messages"][1]["content"];
    EXPECT_NE(p4.find("(wrong_result)"), std::string::npos);
    EXPECT_NE(p4.find("output z: max_rel"), std::string::npos) << p4.substr(0, 4000);
  }
  const nlohmann::json j = json_of(first);
  ASSERT_TRUE(j.is_object()) << first.out;
  ASSERT_EQ(j["attempts"].size(), 4u);
  EXPECT_EQ(j["attempts"][0]["status"], "unusable_answer");
  EXPECT_EQ(j["attempts"][0]["reason_code"], "search_not_found");
  EXPECT_EQ(j["attempts"][1]["verdict"], "compile_error");
  EXPECT_EQ(j["attempts"][2]["verdict"], "wrong_result");
  EXPECT_EQ(j["attempts"][3]["verdict"], "ok");
  EXPECT_GT(j["attempts"][3]["speedup"].get<double>(), 0.0);
  EXPECT_TRUE(j["ok"].get<bool>());
  EXPECT_EQ(j["evaluations"], 5) << "the baseline and one per attempt";
  EXPECT_EQ(j["usage"]["requests"], 4);
  EXPECT_GT(j["usage"]["cost"].get<double>(), 0.0);

  // The server is gone: replay from the cache gives the same attempts and candidates.
  const CliRun replay = run(common + " --llm-replay --out " + (dir.path() / "replay").string());
  ASSERT_EQ(replay.status, 0) << replay.out;
  const nlohmann::json r = json_of(replay);
  ASSERT_EQ(r["attempts"].size(), j["attempts"].size());
  for (size_t i = 0; i < j["attempts"].size(); ++i) {
    for (const char* k : {"status", "reason_code", "reason", "verdict", "speedup", "request_key", "changed_files",
                          "prompt_tokens", "completion_tokens"})
      EXPECT_EQ(r["attempts"][i].value(k, nlohmann::json()), j["attempts"][i].value(k, nlohmann::json()))
          << "attempt " << i + 1 << " " << k;
    // Messages name the candidate's own folder (live/ or replay/).
    EXPECT_EQ(scrub_paths(r["attempts"][i].value("verdict_message", "")),
              scrub_paths(j["attempts"][i].value("verdict_message", "")));
    EXPECT_TRUE(r["attempts"][i]["from_cache"].get<bool>());
  }
  EXPECT_EQ(r["usage"]["requests"], 0);
  EXPECT_EQ(r["usage"]["cache_hits"], 4);
  EXPECT_EQ(testing::read_text(dir.path() / "replay/attempt-4/candidate/op_kernel/add.cpp"),
            testing::read_text(dir.path() / "live/attempt-4/candidate/op_kernel/add.cpp"));
  EXPECT_EQ(testing::read_text(dir.path() / "replay/attempt-2/prompt.md"),
            testing::read_text(dir.path() / "live/attempt-2/prompt.md"));

  // A different seed is a different request: replay refuses it without a network call.
  const CliRun miss = run("llm-propose " AOC_SOURCE_DIR "/ops/elementwise/add --llm-config " +
                       (dir.path() / "llm.toml").string() + " --seed 0x77 --case tiny_fp16 --no-store --llm-replay --out " +
                       (dir.path() / "miss").string());
  EXPECT_EQ(miss.status, 1) << miss.out;
  EXPECT_NE(miss.out.find("replay: no recorded answer"), std::string::npos) << miss.out;

  // The key reached the server and nothing the tool wrote holds it.
  EXPECT_GT(testing::count_files(dir.path() / "llm-cache"), 3u);
  EXPECT_EQ(testing::files_containing(dir.path(), "KEYKEYKEYKEY"), std::vector<std::string>{});
  EXPECT_EQ(first.out.find("KEYKEYKEYKEY"), std::string::npos);
  ::unsetenv("AOC_E2E_LLM_KEY");
}

TEST(LlmPropose, CheckReportsWorkingAndBrokenSettings) {
  ScratchDir dir("check");
  ChatServer server;
  server.script({answer("ready")});
  CliRun ok = run("llm-check --llm-base-url " + server.base_url() + " --llm-model test-model --cache-dir " +
               dir.path().string() + " --json");
  ASSERT_EQ(ok.status, 0) << ok.out;
  const nlohmann::json j = json_of(ok);
  EXPECT_EQ(j["answer"], "ready");
  EXPECT_EQ(j["usage"]["requests"], 1);
  EXPECT_EQ(testing::count_files(dir.path()), 0u) << "a check asks the endpoint, it writes no cache";

  testing::Reply refused;
  refused.status = 401;
  refused.body = R"({"error": {"message": "invalid key"}})";
  server.script({refused});
  ::setenv("AOC_CHECK_KEY", "sk-check-abcdefghijkl", 1);
  CliRun bad = run("llm-check --llm-base-url " + server.base_url() +
                " --llm-model test-model --llm-api-key-env AOC_CHECK_KEY --cache-dir " + dir.path().string());
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.out.find("HTTP 401"), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("$AOC_CHECK_KEY"), std::string::npos) << bad.out;
  ::unsetenv("AOC_CHECK_KEY");

  CliRun unset = run("llm-check --llm-base-url " + server.base_url() +
                  " --llm-model m --llm-api-key-env AOC_CHECK_KEY_UNSET --cache-dir " + dir.path().string());
  EXPECT_EQ(unset.status, 2);
  EXPECT_NE(unset.out.find("AOC_CHECK_KEY_UNSET"), std::string::npos) << unset.out;
  CliRun no_model = run("llm-check --llm-base-url " + server.base_url());
  EXPECT_EQ(no_model.status, 2);
  EXPECT_NE(no_model.out.find("--llm-model"), std::string::npos) << no_model.out;
}

TEST(LlmPropose, UsageErrorsSayWhatToDo) {
  CliRun r = run("llm-propose " AOC_SOURCE_DIR "/ops/elementwise/add --llm-model m --mode fast");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("guided, sample or rewind"), std::string::npos) << r.out;
  r = run("llm-propose " AOC_SOURCE_DIR "/ops/elementwise/add --llm-model m --mode sample --experience x.json");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("--mode guided"), std::string::npos) << r.out;
  r = run("llm-propose " AOC_SOURCE_DIR "/ops/elementwise/add --llm-model m --out " AOC_SOURCE_DIR "/ops");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("already exists"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace aoc::llm
