// Messages from the running kernel name the candidate's own files (eval/source_names.h): the
// staged copies' paths, and the bare folder names of objects shared across folders, are
// written back as the candidate's folders, in runtime errors, GM guard messages and races.
#include <gtest/gtest.h>

#include "eval/source_names.h"
#include "eval_test_support.h"

using namespace aoc::eval;
using namespace aoc::eval::testing;

TEST(SourceNames, StagedAndRelocatedPathsNameTheOriginalFolders) {
  const SourceNames n{{"/c/sources/ab/0/op_host", "/c/sources/ab/1/op_kernel"}, {"/pkg/add/op_host", "/cand/op_kernel"}};
  EXPECT_EQ(n("/c/sources/ab/1/op_kernel/add.cpp:12: DataCopy: out of bounds"),
            "/cand/op_kernel/add.cpp:12: DataCopy: out of bounds");
  EXPECT_EQ(n("tiling function: op_host/add.cpp:7: bad"), "tiling function: /pkg/add/op_host/add.cpp:7: bad");
  EXPECT_EQ(n("op_kernel/add.cpp"), "/cand/op_kernel/add.cpp");
  // Inside another path, or a longer name: untouched.
  EXPECT_EQ(n("/elsewhere/op_host/x.h and my_op_host/x.h"), "/elsewhere/op_host/x.h and my_op_host/x.h");
  EXPECT_EQ(n("/c/sources/ab/1/op_kernel2/x"), "/c/sources/ab/1/op_kernel2/x");
}

namespace {

void expect_candidate_file(const CandidateReport& r, const std::string& kernel) {
  const std::string own = (bad_kernel(kernel) / "op_kernel" / "add.cpp").string();
  ASSERT_EQ(r.cases.size(), 1u) << r.message;
  EXPECT_EQ(r.cases[0].message.find("/sources/"), std::string::npos) << r.cases[0].message;
  EXPECT_NE(r.cases[0].message.find(own), std::string::npos) << r.cases[0].message;
  EXPECT_NE(r.message.find(own), std::string::npos) << r.message;
  for (const auto& w : r.cases[0].warnings) EXPECT_EQ(w.find("/sources/"), std::string::npos) << w;
}

}  // namespace

TEST(SourceNames, AGmGuardErrorNamesTheCandidatesFile) {
  const CandidateReport r = evaluate_dir(bad_kernel("oob_gm_write"), test_options({"aligned_2d_fp16"}));
  ASSERT_EQ(r.verdict, Verdict::RuntimeError) << r.message;
  expect_candidate_file(r, "oob_gm_write");
  EXPECT_EQ(r.cases[0].error_file, (bad_kernel("oob_gm_write") / "op_kernel" / "add.cpp").string());
}

TEST(SourceNames, ARaceReportNamesTheCandidatesFile) {
  CandidateEvalOptions o = test_options({"aligned_2d_fp16"});
  const CandidateReport r = evaluate_dir(bad_kernel("race"), o);
  ASSERT_EQ(r.verdict, Verdict::RuntimeError) << r.message;
  EXPECT_NE(r.message.find("race"), std::string::npos) << r.message;
  expect_candidate_file(r, "race");
  for (const auto& h : r.cases[0].hazards) {
    EXPECT_EQ(h.first.file.find("/sources/"), std::string::npos) << h.first.file;
    EXPECT_EQ(h.second.file.find("/sources/"), std::string::npos) << h.second.file;
  }
}

TEST(SourceNames, AUbOverflowNamesTheCandidatesFile) {
  const CandidateReport r = evaluate_dir(bad_kernel("ub_overflow"), test_options({"aligned_2d_fp16"}));
  ASSERT_EQ(r.verdict, Verdict::RuntimeError) << r.message;
  expect_candidate_file(r, "ub_overflow");
}
