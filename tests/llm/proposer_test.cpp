// The proposer against a real chat-completions server, without the evaluator: prompts of
// each mode carry what they should (profile, experience, failure, rewind target, the
// answer format), answers become candidate folders or refusals with reasons, endpoint
// failures are reported as such, and nothing throws for a bad answer.
#include <gtest/gtest.h>

#include <fstream>

#include "eval/candidate.h"
#include "llm/feedback_loop.h"
#include "llm/proposer.h"
#include "llm_test_support.h"

namespace aoc::llm {
namespace {

const fs::path kAdd = fs::path(AOC_SOURCE_DIR) / "ops" / "elementwise" / "add";

const aoc::eval::Candidate& add_candidate() {
  static const aoc::eval::Candidate c = aoc::eval::load_candidate(kAdd, "test-headers");
  return c;
}

const std::string kGoodEdit =
    "Single buffering.\n"
    "op_kernel/add.cpp\n"
    "<<<<<<< SEARCH\n"
    "constexpr int32_t BUFFER_NUM = 2;\n"
    "=======\n"
    "constexpr int32_t BUFFER_NUM = 1;\n"
    ">>>>>>> REPLACE\n";

struct Fixture {
  ChatServer server;
  ScratchDir dir{"proposer"};
  LlmOptions options = testing::fast_options(server.base_url(), dir.path() / "llm-cache");
  std::unique_ptr<ChatClient> client;
  std::unique_ptr<LlmProposer> proposer;
  aoc::eval::CandidateReport report = testing::add_report();

  Fixture() { reset(); }
  void reset() {
    client = std::make_unique<ChatClient>(options, ApiKey());
    proposer = std::make_unique<LlmProposer>(*client);
  }
  ProposalRequest request(ProposalMode mode, const std::string& out) {
    ProposalRequest r;
    r.mode = mode;
    r.parent = &add_candidate();
    r.parent_report = &report;
    r.seed = 3;
    r.out_dir = dir.path() / out;
    return r;
  }
  std::string last_prompt() const { return server.requests().back()["messages"][1]["content"]; }
};

TEST(Proposer, GoodDiffBecomesACandidateFolder) {
  Fixture f;
  f.server.script({answer(kGoodEdit)});
  const Proposal p = f.proposer->propose(f.request(ProposalMode::Guided, "cand"));
  ASSERT_EQ(p.status, Proposal::Status::Applied) << p.unusable.message;
  EXPECT_EQ(p.changed_files, std::vector<std::string>{"op_kernel/add.cpp"});
  const aoc::eval::Candidate c = aoc::eval::load_candidate(p.candidate_dir, "test-headers");
  EXPECT_EQ(c.package.dir, add_candidate().package.dir);
  EXPECT_NE(c.hash, add_candidate().hash);
  std::ifstream in(p.candidate_dir / "op_kernel" / "add.cpp");
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_NE(ss.str().find("constexpr int32_t BUFFER_NUM = 1;"), std::string::npos);
  EXPECT_TRUE(fs::exists(p.candidate_dir / "op_host" / "add_tiling.h")) << "the tiling sources come along";
}

TEST(Proposer, GuidedPromptCarriesProfileExperienceAndFormat) {
  Fixture f;
  ProposalRequest r = f.request(ProposalMode::Guided, "cand");
  r.experiences = {{"Double-buffer the queues", "Two buffers per queue let MTE2 fill one while V reads the other.",
                    "MTE2-bound with the vector pipe idle", "-BUFFER_NUM = 1\n+BUFFER_NUM = 2", "1.38x on add"}};
  const auto msgs = f.proposer->prompt_for(r);
  ASSERT_EQ(msgs.size(), 2u);
  EXPECT_EQ(msgs[0].role, "system");
  const std::string& u = msgs[1].content;
  for (const char* want :
       {"## Task", "Make this operator faster", "## Operator add", "z = x + y", "Inputs: x (float16|float32, ND)",
        "- aligned_2d_fp16: float16 x=[8,2048]", "## Simulated profile", "15.990 us, T_HW 5.330 us (mte2), 3.00x",
        "bound mte2", "mte2 7.500 (0.91)", "## Experience from other kernels", "### 1. Double-buffer the queues",
        "Measured effect: 1.38x on add", "```diff\n-BUFFER_NUM = 1", "## Current sources", "op_kernel/add.cpp\n```cpp\n",
        "op_host/add_tiling.h\n```cpp\n", "<<<<<<< SEARCH", ">>>>>>> REPLACE"})
    EXPECT_NE(u.find(want), std::string::npos) << want;
  EXPECT_EQ(u.find(kAdd.string()), std::string::npos) << "no absolute paths in prompts";
  EXPECT_EQ(f.proposer->prompt_for(r)[1].content, u) << "deterministic";
}

TEST(Proposer, SampleAndRewindPrompts) {
  Fixture f;
  ProposalRequest r = f.request(ProposalMode::Sample, "cand");
  r.experiences = {{"Ignored in sampling", "", "", "diff", ""}};
  r.previous_failure = AttemptFailure{"wrong_result", "ignored too", {}, ""};
  std::string u = f.proposer->prompt_for(r)[1].content;
  EXPECT_EQ(u.find("Experience"), std::string::npos);
  EXPECT_EQ(u.find("previous attempt"), std::string::npos) << "Best-of-N samples get no feedback";
  EXPECT_NE(u.find("## Simulated profile"), std::string::npos);

  r = f.request(ProposalMode::Rewind, "cand");
  r.rewind_target = "double buffering";
  u = f.proposer->prompt_for(r)[1].content;
  EXPECT_NE(u.find("Remove exactly one optimization"), std::string::npos);
  EXPECT_NE(u.find("\"double buffering\""), std::string::npos);
  EXPECT_NE(u.find("REMOVED: <short name"), std::string::npos);
  r.rewind_target.clear();
  EXPECT_NE(f.proposer->prompt_for(r)[1].content.find("the one you judge contributes most"), std::string::npos);

  f.server.script({answer("REMOVED: double buffering\n" + kGoodEdit)});
  const Proposal p = f.proposer->propose(f.request(ProposalMode::Rewind, "rewound"));
  ASSERT_EQ(p.status, Proposal::Status::Applied);
  EXPECT_EQ(p.removed, "double buffering");
}

TEST(Proposer, FailureOfThePreviousAttemptIsInThePrompt) {
  Fixture f;
  aoc::eval::CandidateReport failed;
  failed.verdict = aoc::eval::Verdict::CompileError;
  failed.message = "add float16 kernel: /tmp/x/attempt-1/candidate/op_kernel/add.cpp:75:9: error: expected ';'";
  failed.diagnostics.push_back({"/tmp/x/attempt-1/candidate/op_kernel/add.cpp", 75, 9, "error", "expected ';' before '}'"});
  aoc::eval::CaseResult wrong;
  wrong.name = "tiny_fp16";
  wrong.dtype = "float16";
  wrong.shapes = "x=[5] y=[5]";
  wrong.verdict = aoc::eval::Verdict::WrongResult;
  wrong.message = "output z: mean relative error above tau";
  aoc::package::OutputCheck o;
  o.name = "z";
  o.cmp.max_rel = 2.0;
  o.cmp.mean_rel = 1.5;
  o.cmp.tau = 0.0009765625;
  o.cmp.worst_index = 3;
  o.cmp.worst_actual = -1.0;
  o.cmp.worst_expected = 7.0;
  wrong.outputs.push_back(o);
  failed.cases.push_back(wrong);
  AttemptFailure af = failure_from_report(failed);
  af.answer_excerpt = "my failed answer";
  ProposalRequest r = f.request(ProposalMode::Guided, "cand");
  r.previous_failure = af;
  const std::string u = f.proposer->prompt_for(r)[1].content;
  for (const char* want :
       {"## Your previous attempt failed (compile_error)", "op_kernel/add.cpp:75:9: error: expected ';' before '}'",
        "case tiny_fp16 (float16, x=[5] y=[5]): wrong_result", "max_rel 2, mean_rel 1.5 (tau 0.0009766)",
        "worst at flat index 3: got -1, expected 7", "my failed answer", "It was not kept"})
    EXPECT_NE(u.find(want), std::string::npos) << want << "\n" << u.substr(0, 3000);
  EXPECT_EQ(u.find("/tmp/x"), std::string::npos) << "paths reduced to the candidate's";
}

TEST(Proposer, BadAnswersAreUnusableWithReasons) {
  Fixture f;
  f.options.max_answer_chars = 20000;
  f.reset();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"op_kernel/add.cpp\n<<<<<<< SEARCH\nconstexpr int32_t BUFFER_NUM = 7;\n=======\nx\n>>>>>>> REPLACE\n",
       "search_not_found"},
      {"../../../etc/passwd\n<<<<<<< SEARCH\nroot\n=======\nx\n>>>>>>> REPLACE\n", "path_escape"},
      {"op_kernel/sub.cpp\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n", "unknown_file"},
      {"", "empty_answer"},
      {std::string(50000, 'y'), "too_long"},
      {"The kernel is already optimal.", "no_edits"}};
  int n = 0;
  for (const auto& [text, code] : cases) {
    f.server.script({answer(text)});
    ProposalRequest r = f.request(ProposalMode::Guided, "cand-" + std::to_string(n));
    r.seed = 100 + n++;
    const Proposal p = f.proposer->propose(r);
    EXPECT_EQ(p.status, Proposal::Status::Unusable) << code;
    EXPECT_EQ(p.unusable.code, code) << p.unusable.message;
    EXPECT_FALSE(fs::exists(r.out_dir)) << "nothing written for " << code;
  }
  Reply cut = answer("op_kernel/add.cpp\n<<<<<<< SEARCH\nconstexpr int32_t BUFFER_NUM = 2;\n=======\n");
  cut.finish_reason = "length";
  f.server.script({cut});
  ProposalRequest r = f.request(ProposalMode::Guided, "cut");
  r.seed = 999;
  EXPECT_EQ(f.proposer->propose(r).unusable.code, "truncated");
}

TEST(Proposer, EndpointFailuresAreReportedNotThrown) {
  Fixture f;
  f.options.timeout_s = 0.3;
  f.options.retries = 0;
  f.reset();
  Reply malformed;
  malformed.body = "{\"choices\": [{\"message\": ";
  Reply hang = answer(kGoodEdit);
  hang.delay_s = 5;
  Reply err;
  err.status = 500;
  f.server.script({malformed, hang, err});
  const std::vector<std::string> kinds = {"bad_response", "timeout", "http"};
  for (size_t i = 0; i < kinds.size(); ++i) {
    ProposalRequest r = f.request(ProposalMode::Guided, "cand");
    r.seed = i;
    const Proposal p = f.proposer->propose(r);
    EXPECT_EQ(p.status, Proposal::Status::EndpointError);
    EXPECT_EQ(p.unusable.code, kinds[i]) << p.unusable.message;
    EXPECT_FALSE(fs::exists(r.out_dir));
  }
  f.server.stop();
  const Proposal p = f.proposer->propose(f.request(ProposalMode::Guided, "cand"));
  EXPECT_EQ(p.unusable.code, "connect") << p.unusable.message;
}

TEST(Proposer, ReplayMissStopsTheCaller) {
  Fixture f;
  f.options.replay = true;
  f.reset();
  EXPECT_THROW(f.proposer->propose(f.request(ProposalMode::Guided, "cand")), LlmError);
  EXPECT_EQ(f.server.request_count(), 0u);
}

TEST(Proposer, FeedbackLoopCarriesEachFailureIntoTheNextPrompt) {
  Fixture f;
  f.server.script({answer("op_kernel/add.cpp\n<<<<<<< SEARCH\nno such line\n=======\nx\n>>>>>>> REPLACE\n"),
                   answer(kGoodEdit), answer(kGoodEdit)});
  // An evaluator that fails the first applied candidate, then accepts.
  int evaluated = 0;
  auto evaluate = [&](const fs::path& dir) {
    aoc::eval::CandidateReport r = testing::add_report();
    r.candidate_dir = dir.string();
    if (evaluated++ == 0) {
      r.verdict = aoc::eval::Verdict::RuntimeError;
      r.message = "case multi_tile_fp32: race on UB bytes [0, 256): " + dir.string() +
                  "/op_kernel/add.cpp:64 Add (pipe V, read) and DataCopy (pipe MTE2, write) are not ordered";
      r.cases[0].verdict = aoc::eval::Verdict::RuntimeError;
      r.cases[0].message = r.message;
    }
    return r;
  };
  FeedbackOptions fo;
  fo.max_attempts = 5;
  fo.out_root = f.dir.path() / "run";
  const auto attempts = propose_with_feedback(*f.proposer, f.request(ProposalMode::Guided, "unused"), evaluate, fo);
  ASSERT_EQ(attempts.size(), 3u);
  EXPECT_EQ(attempts[0].proposal.unusable.code, "search_not_found");
  EXPECT_EQ(attempts[0].evaluations(), 1);
  EXPECT_FALSE(attempts[1].ok());
  EXPECT_TRUE(attempts[2].ok());
  const auto reqs = f.server.requests();
  const std::string second = reqs[1]["messages"][1]["content"];
  EXPECT_NE(second.find("(unusable_answer)"), std::string::npos);
  EXPECT_NE(second.find("search_not_found"), std::string::npos);
  const std::string third = reqs[2]["messages"][1]["content"];
  EXPECT_NE(third.find("(runtime_error)"), std::string::npos);
  EXPECT_NE(third.find("race on UB bytes [0, 256): op_kernel/add.cpp:64 Add"), std::string::npos) << third;
  EXPECT_NE(reqs[0]["seed"], reqs[1]["seed"]);
  for (int k = 1; k <= 3; ++k) {
    const fs::path d = fo.out_root / ("attempt-" + std::to_string(k));
    EXPECT_TRUE(fs::exists(d / "prompt.md") && fs::exists(d / "answer.md") && fs::exists(d / "attempt.json")) << d;
  }
  EXPECT_FALSE(fs::exists(fo.out_root / "attempt-1" / "candidate"));
  EXPECT_TRUE(fs::exists(fo.out_root / "attempt-3" / "candidate" / "candidate.toml"));
}

TEST(Proposer, SpeedupIsTheGeomeanOverCommonCases) {
  aoc::eval::CandidateReport base = testing::add_report(), faster = testing::add_report();
  aoc::eval::CaseResult second = base.cases[0];
  second.name = "other";
  second.sim_us = 4.0;
  base.cases.push_back(second);
  faster.cases[0].sim_us = 15.99 / 4;
  second.sim_us = 1.0;
  faster.cases.push_back(second);
  EXPECT_NEAR(*speedup(base, faster), 4.0, 1e-12);
  faster.cases.clear();
  EXPECT_FALSE(speedup(base, faster));
}

}  // namespace
}  // namespace aoc::llm
