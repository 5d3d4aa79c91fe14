// `ascendopt optimize --llm-config` end to end against a real chat-completions server the test
// starts: an answer that does not apply, one that does not compile and a good one, each
// charged one evaluation and reported with why it failed; the failure of each attempt is in
// the next prompt; the run replayed from the response cache with the server stopped gives the
// same report; the same run folder again loads its attempts instead of asking; the API key is
// in no file written. Then Best-of-N through a 429 and a request that hangs past the timeout;
// with --bank, the bank's entry in the guided prompt (and none without); the model as an arm of
// the episodic optimizer and as OpenEvolve's mutation.
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "bank/store.h"
#include "cli_support.h"
#include "llm/llm_test_support.h"
#include "optimize/small_package.h"

namespace aoc::llm {
namespace {

// 40 characters, easy to grep for.
const std::string kKey = "sk-OPTLLM-SECRET-0123456789abcdefABCDEF9";
const char* kKeyVar = "AOC_OPTIMIZE_LLM_TEST_KEY";

nlohmann::json run_json(const std::string& args, std::string* out = nullptr) {
  ::setenv("ASCENDOPT_HOME", AOC_SOURCE_DIR, 0);
  ::setenv("ASCENDOPT_HIDDEN_SEED", "11", 1);  // the same verification draw for every run
  const auto r = aoc::testing::run_ascendopt(args + " --json", false);
  if (out) *out = r.out;
  EXPECT_EQ(r.status, 0) << args << "\n" << r.out;
  return nlohmann::json::parse(r.out, nullptr, false);
}

struct RunSetup {
  ScratchDir dir{"optimize"};
  fs::path package, config;
  RunSetup() {
    package = aoc::testing::small_package_copy(AOC_SOURCE_DIR "/ops/elementwise/add", dir.path() / "add", 2100);
    config = dir.path() / "llm.toml";
    testing::write_config(config, kKeyVar);
    ::setenv(kKeyVar, kKey.c_str(), 1);
    ::setenv("NO_PROXY", "127.0.0.1,localhost", 1);
    ::setenv("no_proxy", "127.0.0.1,localhost", 1);
  }
  ~RunSetup() { ::unsetenv(kKeyVar); }
  std::string common(const std::string& method, size_t budget) const {
    return "optimize " + package.string() + " --method " + method + " --budget " + std::to_string(budget) +
           " --seed 3 --case tiny_fp16 --timeout 30 --store " + (dir.path() / "store.sqlite").string() +
           " --llm-config " + config.string();
  }
};

// The history rows the LLM made (motif rows may come between them as the catalogue grows).
std::vector<nlohmann::json> llm_history(const nlohmann::json& report) {
  std::vector<nlohmann::json> rows;
  for (const auto& e : report["history"])
    if (e["origin"].get<std::string>().rfind("llm-guided-", 0) == 0) rows.push_back(e);
  return rows;
}

TEST(OptimizeLlm, EveryAttemptIsChargedAndReportedAndReplayIsExact) {
  RunSetup s;
  // The baseline, then kernel and LLM episodes taking turns: add's kernel arm has three motifs
  // to try (unroll, l2_hint, early_copy_in) and their pairs, and spends at most four
  // evaluations in its two episodes; the LLM arm gets the rest, which must cover the three
  // scripted answers.
  const size_t budget = 9;
  const std::string common = s.common("rewrite-only", budget);
  nlohmann::json live;
  std::string live_out;
  {
    ChatServer server;
    server.script({answer(edit("        AscendC::Mul(zLocal, xLocal, yLocal, TileElems(progress));", kAddLine)),
                   answer(edit(kAddLine, "        AscendC::Add(zLocal, xLocal, yLocal, TileElems(progress))")),
                   answer("Single buffering.\n" +
                          edit("constexpr int32_t BUFFER_NUM = 2;", "constexpr int32_t BUFFER_NUM = 1;"))});
    server.set_fallback(answer("I have no idea."));
    live = run_json(common + " --llm-base-url " + server.base_url() + " --out " + (s.dir.path() / "live").string(),
                    &live_out);
    ASSERT_TRUE(live.is_object()) << live_out;
    const auto reqs = server.requests();
    ASSERT_GE(reqs.size(), 3u) << live_out;
    EXPECT_EQ(reqs.size(), llm_history(live).size()) << "one request per LLM row";
    for (const auto& h : server.authorization_headers()) EXPECT_EQ(h, "Bearer " + kKey);
    const std::string p1 = reqs[0]["messages"][1]["content"];
    EXPECT_NE(p1.find("tiny_fp16 (float16 x=[5] y=[5]): "), std::string::npos) << "the parent's profile";
    EXPECT_EQ(p1.find("## Experience from other kernels"), std::string::npos) << "no --bank: no bank entries";
    const std::string p2 = reqs[1]["messages"][1]["content"];
    EXPECT_NE(p2.find("search_not_found"), std::string::npos) << "the failure of the previous attempt";
    const std::string p3 = reqs[2]["messages"][1]["content"];
    EXPECT_NE(p3.find("(compile_error)"), std::string::npos);
    EXPECT_NE(p3.find("op_kernel/add.cpp:"), std::string::npos);
  }
  const auto& h = live["history"];
  ASSERT_EQ(h.size(), budget) << live.dump(2);
  EXPECT_EQ(live["evaluations"], budget);
  for (size_t i = 0; i < h.size(); ++i) EXPECT_EQ(h[i]["spent"], i + 1) << "each row costs exactly one evaluation";
  const auto rows = llm_history(live);
  ASSERT_GE(rows.size(), 3u) << live.dump(2);
  EXPECT_EQ(rows[0]["verdict"], "unusable_answer") << "an answer that does not apply is charged and recorded";
  EXPECT_NE(rows[0]["reason"].get<std::string>().find("search_not_found"), std::string::npos) << rows[0];
  EXPECT_EQ(rows[1]["verdict"], "compile_error");
  EXPECT_FALSE(rows[1]["valid"].get<bool>());
  EXPECT_NE(rows[1]["reason"].get<std::string>().find("error"), std::string::npos) << rows[1];
  EXPECT_EQ(rows[2]["verdict"], "ok");
  EXPECT_TRUE(rows[2]["valid"].get<bool>());
  size_t unusable = 0;
  for (const auto& r : rows) unusable += r["verdict"] == "unusable_answer" ? 1 : 0;
  EXPECT_EQ(live["llm"]["usage"]["requests"], rows.size());
  EXPECT_GT(live["llm"]["usage"]["cost"].get<double>(), 0.0);
  EXPECT_EQ(live["llm"]["proposals"]["applied"], rows.size() - unusable);
  EXPECT_EQ(live["llm"]["proposals"]["unusable"], unusable);
  EXPECT_EQ(live["llm"]["settings"]["api_key_env"], kKeyVar);
  std::ifstream summary(s.dir.path() / "live" / "summary.txt");
  const std::string text((std::istreambuf_iterator<char>(summary)), {});
  EXPECT_NE(text.find("llm: " + std::to_string(rows.size()) + " request(s) to the endpoint"), std::string::npos) << text;
  EXPECT_NE(text.find(std::to_string(unusable) + " not applicable"), std::string::npos) << text;

  // The server is gone: the response cache answers the same requests, the report is the same.
  const nlohmann::json replay = run_json(common + " --llm-replay --out " + (s.dir.path() / "replay").string());
  ASSERT_TRUE(replay.is_object());
  ASSERT_EQ(replay["history"].size(), h.size());
  for (size_t i = 0; i < h.size(); ++i)
    for (const char* k : {"origin", "verdict", "valid", "time_us", "config", "spent", "parent"})
      EXPECT_EQ(replay["history"][i][k], h[i][k]) << i << " " << k;
  EXPECT_EQ(llm_history(replay)[0]["reason"], rows[0]["reason"]);
  EXPECT_EQ(replay["best_us"], live["best_us"]);
  EXPECT_EQ(replay["best"]["index"], live["best"]["index"]);
  EXPECT_EQ(replay["llm"]["usage"]["requests"], 0);
  EXPECT_EQ(replay["llm"]["usage"]["cache_hits"], rows.size());

  // The live run folder again, no server, no cache: its attempt folders are loaded.
  const nlohmann::json resumed =
      run_json(common + " --llm-no-cache --llm-base-url http://127.0.0.1:9/v1 --out " + (s.dir.path() / "live").string());
  ASSERT_TRUE(resumed.is_object());
  EXPECT_EQ(resumed["llm"]["proposals"]["loaded_from_run_folder"], rows.size());
  EXPECT_EQ(resumed["llm"]["proposals"]["asked"], 0);
  EXPECT_EQ(resumed["best_us"], live["best_us"]);
  ASSERT_EQ(resumed["history"].size(), h.size());
  EXPECT_EQ(llm_history(resumed)[0]["reason"], rows[0]["reason"]);

  EXPECT_GT(testing::count_files(s.dir.path() / "llm-cache"), 2u);
  EXPECT_EQ(testing::files_containing(s.dir.path(), kKey.substr(0, 20)), std::vector<std::string>{});
  EXPECT_EQ(live_out.find(kKey.substr(0, 20)), std::string::npos);
}

TEST(OptimizeLlm, BestOfNSurvivesA429AndAHangingRequest) {
  RunSetup s;
  ChatServer server;
  Reply busy;
  busy.status = 429;
  busy.retry_after = "0";
  busy.body = R"({"error": {"message": "rate limited"}})";
  Reply hang = answer("too late");
  hang.delay_s = 8;
  server.script({busy, answer(edit("constexpr int32_t BUFFER_NUM = 2;", "constexpr int32_t BUFFER_NUM = 1;")), hang,
                 hang});
  server.set_fallback(answer("I have no idea."));
  std::string out;
  const nlohmann::json j = run_json(s.common("best-of-n", 3) + " --llm-base-url " + server.base_url() +
                                        " --llm-timeout 1 --out " + (s.dir.path() / "bon").string(),
                                    &out);
  ASSERT_TRUE(j.is_object()) << out;
  const auto& h = j["history"];
  ASSERT_EQ(h.size(), 3u) << j.dump(2);
  EXPECT_EQ(h[1]["verdict"], "ok") << "the answer after the 429";
  EXPECT_EQ(h[2]["verdict"], "unusable_answer") << "the hanging request costs nothing; the next answer is charged";
  EXPECT_NE(h[2]["reason"].get<std::string>().find("no_edits"), std::string::npos) << h[2];
  EXPECT_GE(j["llm"]["usage"]["retries"].get<int>(), 2);
  EXPECT_EQ(j["llm"]["proposals"]["endpoint_errors"], 1);
  bool noted = false;
  for (const auto& n : j["notes"]) noted = noted || n.get<std::string>().find("(timeout)") != std::string::npos;
  EXPECT_TRUE(noted) << j["notes"];
  EXPECT_EQ(testing::files_containing(s.dir.path(), kKey.substr(0, 20)), std::vector<std::string>{});
}

TEST(OptimizeLlm, BankEntriesAreInTheGuidedPrompt) {
  RunSetup s;
  // A mined entry as rewinding stores it: its diff removes the optimization.
  const aoc::bank::Entry e = testing::mined_entry("relu");
  const fs::path bank = s.dir.path() / "bank.sqlite";
  aoc::bank::Bank(bank).insert(e);

  ChatServer server;
  server.set_fallback(answer("I have no idea."));
  std::string out;
  // Budget 4: the baseline, a kernel episode of two motifs, then the LLM arm.
  const nlohmann::json j = run_json(s.common("rewrite-only", 4) + " --bank " + bank.string() + " --llm-base-url " +
                                        server.base_url() + " --out " + (s.dir.path() / "banked").string(),
                                    &out);
  ASSERT_TRUE(j.is_object()) << out;
  ASSERT_GE(server.request_count(), 1u) << j.dump(2);
  const std::string p = server.requests()[0]["messages"][1]["content"];
  EXPECT_NE(p.find("## Experience from other kernels\n### 1. double_buffer in relu (worth 1.066x)"), std::string::npos)
      << p;
  EXPECT_NE(p.find("Measured effect: 1.066x geomean over 1 cases of relu"), std::string::npos) << p;
  EXPECT_NE(p.find("-constexpr int32_t BUFFER_NUM = 1;\n+constexpr int32_t BUFFER_NUM = 2;"), std::string::npos)
      << "the diff that adds the optimization:\n" << p;
}

// Answers that flip the queues' buffer count, so each answer is a correct kernel.
Reply flip_buffers(const nlohmann::json& body) {
  const std::string prompt = body["messages"][1]["content"];
  if (prompt.find("BUFFER_NUM = 2;") != std::string::npos)
    return answer(edit("constexpr int32_t BUFFER_NUM = 2;", "constexpr int32_t BUFFER_NUM = 1;"));
  return answer(edit("constexpr int32_t BUFFER_NUM = 1;", "constexpr int32_t BUFFER_NUM = 2;"));
}

TEST(OptimizeLlm, TheEpisodicOptimizerPlaysAnLlmArm) {
  RunSetup s;
  ChatServer server;
  server.set_handler(flip_buffers);
  std::string out;
  const nlohmann::json j = run_json(s.common("optimize", 7) + " --llm-base-url " + server.base_url() + " --out " +
                                        (s.dir.path() / "opt").string(),
                                    &out);
  ASSERT_TRUE(j.is_object()) << out;
  EXPECT_EQ(j["evaluations"], 7);
  bool host = false, llm = false;
  for (const auto& e : j["episodes"]) {
    host = host || e.get<std::string>().rfind("host episode", 0) == 0;
    llm = llm || e.get<std::string>().rfind("llm episode", 0) == 0;
  }
  EXPECT_TRUE(host && llm) << j["episodes"];
  EXPECT_GE(llm_history(j).size(), 1u) << j.dump(2);
  EXPECT_EQ(j["llm"]["usage"]["requests"].get<size_t>(), server.request_count());
}

TEST(OptimizeLlm, OpenEvolveMutatesWithTheModel) {
  RunSetup s;
  ChatServer server;
  server.set_handler(flip_buffers);
  std::string out;
  const nlohmann::json j = run_json(s.common("openevolve", 5) + " --llm-base-url " + server.base_url() + " --out " +
                                        (s.dir.path() / "oe").string(),
                                    &out);
  ASSERT_TRUE(j.is_object()) << out;
  EXPECT_EQ(j["evaluations"], 5);
  EXPECT_GE(llm_history(j).size(), 1u) << j.dump(2);
  EXPECT_GE(server.request_count(), 1u);
}

}  // namespace
}  // namespace aoc::llm
