// ask_rewound_kernel against a real chat-completions server: the rewind prompt names the
// optimization to remove, an applied answer leaves the rewound kernel and the attempt's
// record in the folder, the same folder again is read back without a request, an answer that
// does not apply is recorded with its reason, and an endpoint failure leaves nothing behind.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "eval/candidate.h"
#include "llm/rewind_ask.h"
#include "llm_test_support.h"

namespace aoc::llm {
namespace {

const aoc::eval::Candidate& add_candidate() {
  static const aoc::eval::Candidate c =
      aoc::eval::load_candidate(fs::path(AOC_SOURCE_DIR) / "ops" / "elementwise" / "add", "test-headers");
  return c;
}

const std::string kSingleBuffer =
    "REMOVED: double buffering\n"
    "op_kernel/add.cpp\n<<<<<<< SEARCH\nconstexpr int32_t BUFFER_NUM = 2;\n=======\n"
    "constexpr int32_t BUFFER_NUM = 1;\n>>>>>>> REPLACE\n";

struct Asker {
  ChatServer server;
  ScratchDir dir{"rewind"};
  ChatClient client{testing::fast_options(server.base_url(), dir.path() / "llm-cache"), ApiKey()};
  LlmProposer proposer{client};
  RewindAsk ask(const std::string& folder, const std::string& target = "double buffering") {
    RewindAsk a;
    a.kernel = &add_candidate();
    a.target = target;
    a.seed = 7;
    a.dir = dir.path() / folder;
    return a;
  }
};

TEST(RewindAsk, AppliedAnswerIsARewoundKernelAndIsReadBackOnResume) {
  Asker t;
  t.server.script({answer(kSingleBuffer)});
  const RewindAnswer first = ask_rewound_kernel(t.proposer, t.ask("add-remove-double_buffer"));
  ASSERT_EQ(first.proposal.status, Proposal::Status::Applied) << first.proposal.unusable.message;
  EXPECT_FALSE(first.loaded);
  EXPECT_EQ(first.proposal.removed, "double buffering");
  ASSERT_EQ(t.server.request_count(), 1u);
  const std::string prompt = t.server.requests()[0]["messages"][1]["content"];
  EXPECT_NE(prompt.find("\"double buffering\""), std::string::npos) << "the target is in the rewind prompt";
  const fs::path dir = t.dir.path() / "add-remove-double_buffer";
  EXPECT_NE(testing::read_text(dir / "candidate" / "op_kernel" / "add.cpp").find("BUFFER_NUM = 1;"), std::string::npos);
  for (const char* f : {"prompt.md", "answer.md", "proposal.json"}) EXPECT_TRUE(fs::exists(dir / f)) << f;
  EXPECT_NO_THROW(aoc::eval::load_candidate(first.proposal.candidate_dir, "test-headers"));

  const RewindAnswer again = ask_rewound_kernel(t.proposer, t.ask("add-remove-double_buffer"));
  EXPECT_TRUE(again.loaded);
  EXPECT_EQ(t.server.request_count(), 1u) << "a folder with a record is not asked again";
  EXPECT_EQ(again.proposal.status, Proposal::Status::Applied);
  EXPECT_EQ(again.proposal.removed, "double buffering");
  EXPECT_EQ(again.proposal.candidate_dir, first.proposal.candidate_dir);
  EXPECT_EQ(again.proposal.answer.key, first.proposal.answer.key);
}

TEST(RewindAsk, UnusableAnswerIsRecordedAndEndpointFailureLeavesNothing) {
  Asker t;
  Reply broken;
  broken.status = 500;
  t.server.script({answer("REMOVED: everything\nNo edits, sorry."), broken, broken, broken});
  const RewindAnswer bad = ask_rewound_kernel(t.proposer, t.ask("bad", ""));
  ASSERT_EQ(bad.proposal.status, Proposal::Status::Unusable);
  EXPECT_EQ(bad.proposal.unusable.code, "no_edits");
  const RewindAnswer reread = ask_rewound_kernel(t.proposer, t.ask("bad", ""));
  EXPECT_TRUE(reread.loaded);
  EXPECT_EQ(reread.proposal.status, Proposal::Status::Unusable);
  EXPECT_EQ(reread.proposal.unusable.message, bad.proposal.unusable.message);

  const RewindAnswer none = ask_rewound_kernel(t.proposer, t.ask("down"));
  EXPECT_EQ(none.proposal.status, Proposal::Status::EndpointError);
  EXPECT_FALSE(fs::exists(t.dir.path() / "down")) << "no record: a later run asks again";
}

}  // namespace
}  // namespace aoc::llm
