// Messages from the running kernel name the candidate's own files (eval/source_names.h): the
// staged copies' paths, and the bare folder names of objects shared across folders, are
// written back as the candidate's folders, in runtime errors, GM guard messages and races.
#include <gtest/gtest.h>

#include <fstream>

#include "eval/source_names.h"
#include "eval_test_support.h"
#include "scratch_dir.h"

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

// op_host's object is shared across folders, so its __FILE__ is the bare "op_host/add.cpp":
// a tiling function's error still names the candidate's op_host file.
TEST(SourceNames, ATilingErrorInTheCandidatesOpHostNamesItsFile) {
  namespace fs = std::filesystem;
  aoc::testing::ScratchDir dir("source-names");
  fs::copy(add_package() / "op_kernel", dir.path() / "op_kernel", fs::copy_options::recursive);
  fs::copy(add_package() / "op_host", dir.path() / "op_host", fs::copy_options::recursive);
  std::ofstream(dir.path() / "candidate.toml") << "package = \"" << add_package().string() << "\"\n";
  const fs::path host = dir.path() / "op_host" / "add.cpp";
  std::ifstream in(host);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string save = "context->GetRawTilingData()->GetCapacity()";
  ASSERT_NE(text.find(save), std::string::npos);
  text.replace(text.find(save), save.size(), "1");  // a one-byte tiling buffer: SaveToBuffer refuses
  std::ofstream(host) << text;
  const CandidateReport r = evaluate_dir(dir.path(), test_options({"tiny_fp16"}));
  ASSERT_EQ(r.verdict, Verdict::RuntimeError) << r.message;
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_EQ(r.cases[0].error_file, host.string()) << r.message;
  EXPECT_NE(r.message.find(host.string() + ":"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("SaveToBuffer"), std::string::npos) << r.message;
}
