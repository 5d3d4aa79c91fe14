// The model's removals of a strong kernel (rewind/llm_removals.h) against a real
// chat-completions server, without evaluating them: a motif asked for by name has its name and
// summary in the prompt and a folder of its own; applied answers are classified by the motif
// detectors (the motif whose state went present -> absent, else unclassified) and carry their
// diff and provenance; an answer that does not apply is a row with its reason; after three
// endpoint failures in a row the model is not asked again and no folder is left. And the
// mistakes `rewind` refuses in its --llm-* flags.
#include <gtest/gtest.h>

#include "cli_support.h"
#include "eval/candidate.h"
#include "llm/llm_test_support.h"
#include "rewind/llm_removals.h"

namespace aoc::llm {
namespace {

const aoc::eval::Candidate& expert() {
  static const aoc::eval::Candidate c =
      aoc::eval::load_candidate(fs::path(AOC_SOURCE_DIR) / "ops" / "elementwise" / "add" / "expert", "test-headers");
  return c;
}

const std::vector<aoc::rewrite::MotifState>& expert_states() {
  static const auto s = aoc::rewrite::detect_motifs(expert());
  return s;
}

struct Remover {
  ChatServer server;
  ScratchDir dir{"removals"};
  ChatClient client{testing::fast_options(server.base_url(), dir.path() / "llm-cache"), ApiKey()};
  LlmProposer proposer{client};
};

TEST(LlmRemovals, NamedAndUnnamedAnswersAreClassifiedByTheDetectors) {
  Remover t;
  t.server.script({answer("REMOVED: double buffering\n" +
                          edit("constexpr int32_t BUFFER_NUM = 2;", "constexpr int32_t BUFFER_NUM = 1;") +
                          edit("constexpr uint32_t BUFFER_NUM = 2;", "constexpr uint32_t BUFFER_NUM = 1;",
                               "op_host/add.cpp")),
                   answer("REMOVED: a comment\n" + edit("// flattened tensor and streams it through UB in tiles with "
                                                        "double buffering",
                                                        "// flattened tensor and streams it through UB in tiles")),
                   answer("REMOVED: everything\nNo edits, sorry.")});
  aoc::rewind::LlmRemover remover(t.proposer, 2);
  const auto out =
      remover.ask(expert(), testing::add_report(), expert_states(), {"double_buffer"}, t.dir.path(), "test-headers");
  ASSERT_EQ(out.size(), 3u);
  ASSERT_EQ(t.server.request_count(), 3u);

  const auto& named = out[0];
  EXPECT_EQ(named.row.status, "") << named.row.reason << ": to be evaluated";
  EXPECT_EQ(named.row.source, "llm");
  EXPECT_EQ(named.row.motif, "double_buffer");
  EXPECT_EQ(named.label.motif, "double_buffer");
  EXPECT_EQ(named.row.target.rfind("double_buffer: ", 0), 0u) << named.row.target;
  EXPECT_EQ(named.row.dir.filename().string(), "add-" + expert().hash.substr(0, 12) + "-llm-remove-double_buffer");
  const std::string prompt = t.server.requests()[0]["messages"][1]["content"];
  EXPECT_NE(prompt.find("the one described as \"" + named.row.target + "\""), std::string::npos);
  EXPECT_NE(prompt.find("multi_tile_fp32"), std::string::npos) << "the kernel's profile";
  EXPECT_TRUE(fs::exists(named.candidate / "candidate.toml"));
  EXPECT_NE(named.diff.find("-constexpr int32_t BUFFER_NUM = 2;"), std::string::npos) << named.diff;
  EXPECT_EQ(named.provenance["source"], "llm");
  EXPECT_EQ(named.provenance["model"], "test-model");
  EXPECT_EQ(named.provenance["request_key"].get<std::string>().size(), 32u);
  EXPECT_EQ(named.what, "model removal of \"double buffering\"");

  const auto& comment = out[1];
  EXPECT_EQ(comment.row.status, "");
  EXPECT_EQ(comment.label.motif, "unclassified") << "no detector state changes";
  EXPECT_EQ(comment.row.target, "");
  EXPECT_EQ(comment.provenance["asked"], "the optimization that matters most");
  EXPECT_EQ(comment.row.dir.filename().string(), "add-" + expert().hash.substr(0, 12) + "-llm-1");

  EXPECT_EQ(out[2].row.status, "unusable");
  EXPECT_EQ(out[2].row.reason.rfind("no_edits: ", 0), 0u) << out[2].row.reason;
  EXPECT_TRUE(out[2].candidate.empty());
  EXPECT_TRUE(fs::exists(out[2].row.dir / "proposal.json")) << "recorded, so a rerun does not ask again";

  EXPECT_EQ(remover.counts().asked, 3u);
  EXPECT_EQ(remover.counts().applied, 2u);
  EXPECT_EQ(remover.counts().unusable, 1u);
}

TEST(LlmRemovals, EndpointFailuresStopTheAsking) {
  Remover t;
  Reply broken;
  broken.status = 500;
  t.server.set_fallback(broken);
  aoc::rewind::LlmRemover remover(t.proposer, 5);
  aoc::rewrite::MotifState present{"double_buffer", "two buffers", aoc::rewrite::State::Present, "BUFFER_NUM = 2", {}};
  const auto out = remover.ask(expert(), testing::add_report(), {present}, {}, t.dir.path(), "test-headers");
  ASSERT_EQ(out.size(), 3u) << "asking stops after three endpoint failures in a row";
  for (const auto& r : out) {
    EXPECT_EQ(r.row.status, "no_answer");
    EXPECT_EQ(r.row.reason.rfind("http: ", 0), 0u) << r.row.reason;
    EXPECT_FALSE(fs::exists(r.row.dir)) << "no record: a later run asks again";
  }
  ASSERT_EQ(remover.notes().size(), 1u);
  EXPECT_NE(remover.notes()[0].find("not asked again"), std::string::npos);
  EXPECT_EQ(remover.counts().endpoint_errors, 3u);
}

TEST(LlmRemovals, RewindFlagErrorsSayWhatToDo) {
  ::setenv("ASCENDOPT_HOME", AOC_SOURCE_DIR, 0);
  const std::string expert = AOC_SOURCE_DIR "/ops/elementwise/add/expert --no-store";
  auto r = aoc::testing::run_ascendopt("rewind " + expert + " --llm-asks 2");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("--llm-asks need --llm-config FILE"), std::string::npos) << r.out;
  r = aoc::testing::run_ascendopt("rewind " + expert + " --llm-temperature 0.5");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("need --llm-config"), std::string::npos) << r.out;
  r = aoc::testing::run_ascendopt("rewind " AOC_SOURCE_DIR "/ops/elementwise/add --hunks --no-store --llm-model m "
                                  "--llm-base-url http://127.0.0.1:9/v1");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("--hunks reverts the expert's hunks and asks no model"), std::string::npos) << r.out;
  r = aoc::testing::run_ascendopt("rewind " + expert + " --llm-model m --llm-base-url http://127.0.0.1:9/v1 "
                                  "--llm-api-key-env AOC_REWIND_UNSET_VARIABLE");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("AOC_REWIND_UNSET_VARIABLE"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace aoc::llm
