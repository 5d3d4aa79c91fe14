// Cases the machine cannot hold and workspaces beyond the memory limit: the verdict's message
// names the case, the buffer and its size in bytes against the limit, never std::bad_alloc or
// a bare memory-limit message.
#include <gtest/gtest.h>

#include <fstream>

#include "eval/case_size.h"
#include "eval_test_support.h"
#include "scratch_dir.h"

using namespace aoc::eval;
using namespace aoc::eval::testing;
namespace fs = std::filesystem;

TEST(CaseSize, ACaseOfTwoToTheFortyElementsIsNamedWithItsBytes) {
  aoc::testing::ScratchDir dir("case-size");
  const fs::path pkg = dir.path() / "add";
  fs::copy(add_package(), pkg, fs::copy_options::recursive);
  std::ofstream(pkg / "op.toml", std::ios::app) << "\n[[cases]]\nname = \"huge_fp16\"\nshape = [1048576, 1048576]\n"
                                                   "dtype = \"float16\"\n";
  CandidateEvalOptions o = test_options({"huge_fp16"});
  o.limits.address_space_bytes = 4ull << 30;
  const CandidateReport r = evaluate_dir(pkg, o);
  ASSERT_EQ(r.cases.size(), 1u) << r.message;
  EXPECT_EQ(r.verdict, Verdict::Error) << r.message;
  EXPECT_EQ(r.message.find("bad_alloc"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("case huge_fp16"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("input x holds 1099511627776 elements of float16: 2199023255552 bytes, more than the "
                           "address-space limit of 4294967296 bytes (--memory-gb 4)"),
            std::string::npos)
      << r.message;
}

TEST(CaseSize, BuffersThatFitOnlyAloneAreNamedTogether) {
  const aoc::package::OpPackage p = aoc::package::load_op_package(add_package());
  aoc::package::CaseSpec c = p.cases.front();
  c.variant = 0;
  c.shapes = {{"x", {1024, 1024}}, {"y", {1024, 1024}}};  // 2 MiB each in float16
  EXPECT_EQ(oversized_case(p, c, {{1024, 1024}}, 8ull << 20), "");
  const std::string together = oversized_case(p, c, {{1024, 1024}}, 5ull << 20);
  EXPECT_NE(together.find("together hold 6291456 bytes"), std::string::npos) << together;
  const std::string output = oversized_case(p, c, {{1024, 4096}}, 4ull << 20);
  EXPECT_NE(output.find("output z holds 4194304 elements"), std::string::npos) << output;
}

TEST(CaseSize, ATerabyteWorkspaceIsAMemoryLimitNamingTheWorkspace) {
  const CandidateReport r = evaluate_dir(bad_kernel("huge_workspace"), test_options({"tiny_fp16"}));
  ASSERT_EQ(r.verdict, Verdict::MemoryLimit) << r.message;
  EXPECT_NE(r.message.find("case tiny_fp16"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("workspace (GetWorkspaceSizes) of 1099511627776 bytes, more than the address-space limit "
                           "of 4294967296 bytes"),
            std::string::npos)
      << r.message;
  EXPECT_EQ(r.message.find("exceeded the address-space limit (an allocation failed)"), std::string::npos) << r.message;
}
