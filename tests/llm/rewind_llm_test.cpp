// `ascendopt rewind --llm-config` end to end against a real chat-completions server the test
// starts, on add's expert and one small case: besides the catalogue's removal of double
// buffering, the model is asked three times for the optimization that matters most (the first
// request meets a 429). A good answer (single buffering in kernel and tiling) is evaluated,
// classified double_buffer by the detectors and stored with the model as its source; an answer
// that does not apply and one that does not compile are reported with their reasons and not
// stored. Replayed from the response cache into a fresh bank and work folder with the server
// stopped, the rows and the bank entries are the same; the key is in no file written. And a
// motif whose removal by the rewriter does not compile is asked for by name.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "bank/store.h"
#include "cli_support.h"
#include "llm_test_support.h"

namespace aoc::llm {
namespace {

const std::string kKey = "sk-REWIND-LLM-SECRET-0123456789abcdefXYZ";
const char* kKeyVar = "AOC_REWIND_LLM_TEST_KEY";

nlohmann::json rewind_json(const std::string& args) {
  ::setenv("ASCENDOPT_HOME", AOC_SOURCE_DIR, 0);
  const auto r = aoc::testing::run_ascendopt("rewind " + args + " --json", false);
  EXPECT_EQ(r.status, 0) << args << "\n" << r.out;
  return nlohmann::json::parse(r.out, nullptr, false);
}

// The rows of the one kernel rewound, without what depends on the work folder.
nlohmann::json rows_of(const nlohmann::json& report, const fs::path& work) {
  nlohmann::json rows = nlohmann::json::array();
  for (auto row : report["kernels"][0]["motifs"]) {
    row.erase("dir");
    std::string reason = row.value("reason", "");
    for (size_t at; (at = reason.find(work.string())) != std::string::npos;) reason.replace(at, work.string().size(), "W");
    row["reason"] = reason;
    rows.push_back(row);
  }
  return rows;
}

std::vector<nlohmann::json> entries_of(const fs::path& bank) {
  std::vector<nlohmann::json> out;
  for (const auto& e : aoc::bank::Bank(bank).entries()) {
    nlohmann::json j = aoc::bank::to_json(e);
    j.erase("id");
    j.erase("created");
    out.push_back(j);
  }
  return out;
}

const std::string kSingleBuffering =
    "REMOVED: double buffering\n" +
    edit("constexpr int32_t BUFFER_NUM = 2;", "constexpr int32_t BUFFER_NUM = 1;") +
    edit("constexpr uint32_t BUFFER_NUM = 2;", "constexpr uint32_t BUFFER_NUM = 1;", "op_host/add.cpp");

TEST(RewindLlm, AnswersAreMinedLikeRemovalsAndReplayIsExact) {
  ScratchDir dir("rewind");
  testing::write_config(dir.path() / "llm.toml", kKeyVar);
  ::setenv(kKeyVar, kKey.c_str(), 1);
  ::setenv("NO_PROXY", "127.0.0.1,localhost", 1);
  const std::string common = AOC_SOURCE_DIR "/ops/elementwise/add/expert --motif double_buffer --case rank1_small_fp32 "
                             "--no-store -j 2 --llm-asks 3 --llm-config " + (dir.path() / "llm.toml").string();
  nlohmann::json live;
  {
    ChatServer server;
    Reply busy;
    busy.status = 429;
    busy.retry_after = "0";
    server.script({busy, answer(kSingleBuffering),
                   answer("REMOVED: bank padding\n" + edit("    AscendC::TBuf<AscendC::TPosition::VECCALC> pad;", "")),
                   answer("REMOVED: nothing much\n" + edit(kAddLine, kAddLine.substr(0, kAddLine.size() - 1)))});
    live = rewind_json(common + " --llm-base-url " + server.base_url() + " --bank " + (dir.path() / "live.sqlite").string() +
                       " --work-dir " + (dir.path() / "live").string());
    ASSERT_EQ(server.request_count(), 4u) << live.dump(2);
    for (const auto& h : server.authorization_headers()) EXPECT_EQ(h, "Bearer " + kKey);
    const std::string prompt = server.requests()[1]["messages"][1]["content"];
    EXPECT_NE(prompt.find("Remove exactly one optimization from it: the one you judge contributes most"),
              std::string::npos);
    EXPECT_NE(prompt.find("rank1_small_fp32"), std::string::npos) << "the kernel's profile";
  }
  const nlohmann::json rows = rows_of(live, dir.path() / "live");
  ASSERT_EQ(rows.size(), 4u) << live.dump(2);
  EXPECT_EQ(rows[0]["source"], "rewriter");
  EXPECT_EQ(rows[0]["motif"], "double_buffer");
  EXPECT_TRUE(rows[0]["entry_id"].is_number()) << rows[0].dump();

  const auto& good = rows[1];
  EXPECT_EQ(good["source"], "llm");
  EXPECT_EQ(good["motif"], "double_buffer") << "classified by the detector whose state went present -> absent";
  EXPECT_EQ(good["removed"], "double buffering");
  EXPECT_EQ(good["target"], "") << "unnamed: the model's choice";
  EXPECT_TRUE(good["status"] == "positive" || good["status"] == "negative") << good.dump();
  EXPECT_TRUE(good["entry_id"].is_number());
  EXPECT_EQ(rows[2]["status"], "unusable");
  EXPECT_EQ(rows[2]["reason"].get<std::string>().rfind("search_not_found: ", 0), 0u) << rows[2].dump();
  EXPECT_TRUE(rows[2]["entry_id"].is_null());
  EXPECT_EQ(rows[3]["status"], "failed");
  EXPECT_EQ(rows[3]["reason"].get<std::string>().rfind("compile_error: ", 0), 0u) << rows[3].dump();
  EXPECT_TRUE(rows[3]["entry_id"].is_null());
  EXPECT_EQ(live["entries_stored"], 2);

  const auto& usage = live["llm"]["usage"];
  EXPECT_EQ(usage["requests"], 3);
  EXPECT_EQ(usage["retries"], 1);
  EXPECT_GT(usage["prompt_tokens"].get<int64_t>(), 1000);
  EXPECT_GT(usage["cost"].get<double>(), 0);
  EXPECT_EQ(live["llm"]["proposals"]["applied"], 2);
  EXPECT_EQ(live["llm"]["proposals"]["unusable"], 1);
  EXPECT_EQ(live["llm"]["settings"]["api_key_env"], kKeyVar);

  const auto entries = entries_of(dir.path() / "live.sqlite");
  ASSERT_EQ(entries.size(), 2u);
  const auto& e = entries[1];
  EXPECT_EQ(e["motif"], "double_buffer");
  EXPECT_EQ(e["provenance"]["source"], "llm");
  EXPECT_EQ(e["provenance"]["model"], "test-model");
  EXPECT_EQ(e["provenance"]["removed"], "double buffering");
  EXPECT_NE(e["title"].get<std::string>().find("model removal of \"double buffering\" in add"), std::string::npos)
      << e.dump(2);
  EXPECT_NE(e["diff"].get<std::string>().find("+constexpr uint32_t BUFFER_NUM = 1;"), std::string::npos);
  EXPECT_EQ(entries[0]["provenance"].value("source", ""), "") << "the catalogue's entries are as before";

  // The server is gone: the cache answers the same three requests.
  const nlohmann::json replay =
      rewind_json(common + " --llm-replay --bank " + (dir.path() / "replay.sqlite").string() + " --work-dir " +
                  (dir.path() / "replay").string());
  EXPECT_EQ(rows_of(replay, dir.path() / "replay"), rows);
  EXPECT_EQ(entries_of(dir.path() / "replay.sqlite"), entries);
  EXPECT_EQ(replay["llm"]["usage"]["requests"], 0);
  EXPECT_EQ(replay["llm"]["usage"]["cache_hits"], 3);

  EXPECT_EQ(testing::files_containing(dir.path(), kKey), std::vector<std::string>{});
  EXPECT_GT(testing::count_files(dir.path() / "llm-cache"), 2u);
  ::unsetenv(kKeyVar);
}

TEST(RewindLlm, AMotifTheCatalogueCannotRemoveIsAskedByName) {
  ScratchDir dir("rewind-named");
  ::setenv("NO_PROXY", "127.0.0.1,localhost", 1);
  ChatServer server;
  server.set_fallback(answer("REMOVED: nothing\nNo edits, sorry."));
  // The rewriter refuses to remove hard_sigmoid's double buffering (its loop copies two tiles in
  // at once, so both buffers of the queue are in use): it removes it only from the kernel without
  // the unrolling, and the model is asked by name for the removal from the kernel as it is, and
  // only for it (--llm-asks 0).
  const nlohmann::json j =
      rewind_json(AOC_SOURCE_DIR "/ops/activation/hard_sigmoid/expert --motif double_buffer --case tiny_fp16 "
                  "--no-store -j 2 --llm-asks 0 --llm-no-cache --llm-model test-model --llm-base-url " +
                  server.base_url() + " --bank " + (dir.path() / "bank.sqlite").string() + " --work-dir " +
                  (dir.path() / "work").string());
  const nlohmann::json rows = rows_of(j, dir.path() / "work");
  ASSERT_EQ(rows.size(), 3u) << j.dump(2);
  EXPECT_EQ(rows[0]["source"], "rewriter");
  EXPECT_EQ(rows[0]["status"], "refused");
  EXPECT_NE(rows[0]["reason"].get<std::string>().find("runs twice per iteration"), std::string::npos)
      << rows[0].dump();
  EXPECT_EQ(rows[1]["source"], "rewriter");
  EXPECT_EQ(rows[1]["after"], "unroll") << rows[1].dump();
  EXPECT_TRUE(rows[1]["status"] == "positive" || rows[1]["status"] == "negative") << rows[1].dump();
  EXPECT_EQ(rows[2]["source"], "llm");
  EXPECT_EQ(rows[2]["target"].get<std::string>().rfind("double_buffer: ", 0), 0u) << rows[2].dump();
  EXPECT_EQ(rows[2]["status"], "unusable");
  EXPECT_EQ(rows[2]["reason"].get<std::string>().rfind("no_edits: ", 0), 0u) << rows[2].dump();
  ASSERT_EQ(server.request_count(), 1u);
  const std::string prompt = server.requests()[0]["messages"][1]["content"];
  EXPECT_NE(prompt.find("the one described as \"" + rows[2]["target"].get<std::string>() + "\""), std::string::npos);
  EXPECT_EQ(j["entries_stored"], 1);
}

}  // namespace
}  // namespace aoc::llm
