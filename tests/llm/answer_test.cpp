// Strict reading of answers (SEARCH/REPLACE blocks naming their file, named whole files)
// and their application to a copy of a candidate: every refusal has its own reason.
#include <gtest/gtest.h>

#include <fstream>

#include "llm/answer.h"
#include "llm/candidate_edit.h"
#include "test_dirs.h"

namespace aoc::llm {
namespace {

const char* const kKernel =
    "#include \"kernel_operator.h\"\n"
    "constexpr int32_t BUFFER_NUM = 1;\n"
    "void Compute() {\n"
    "    Add(z, x, y, n);\n"
    "}\n"
    "void Other() {\n"
    "    Add(z, x, y, n);\n"
    "}\n";

SourceTree tree() {
  SourceTree t;
  t.package_dir = "/pkg/add";
  t.files["op_kernel/add.cpp"] = kKernel;
  t.files["op_host/add.cpp"] = "int TilingFunc() { return 0; }\n";
  t.files["op_host/add_tiling.h"] = "struct AddTiling { int n; };\n";
  return t;
}

std::string unusable(const std::string& answer, const std::string& finish = "stop", size_t max_chars = 100000) {
  try {
    apply_edits(tree(), parse_answer(answer, finish, AnswerLimits{max_chars}), ApplyLimits{});
  } catch (const AnswerError& e) {
    return e.unusable().code + ": " + e.what();
  }
  return "applied";
}

AppliedAnswer applied(const std::string& answer) {
  return apply_edits(tree(), parse_answer(answer, "stop", AnswerLimits{}), ApplyLimits{});
}

bool starts_with(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }

TEST(Answer, SearchReplaceBlockNamedByTheLineBefore) {
  const AppliedAnswer a = applied(
      "Double buffering overlaps the copies.\n\n"
      "op_kernel/add.cpp\n"
      "```cpp\n"
      "<<<<<<< SEARCH\n"
      "constexpr int32_t BUFFER_NUM = 1;\n"
      "=======\n"
      "constexpr int32_t BUFFER_NUM = 2;\n"
      ">>>>>>> REPLACE\n"
      "```\n");
  ASSERT_EQ(a.changed, std::vector<std::string>{"op_kernel/add.cpp"});
  const std::string& k = a.tree.files.at("op_kernel/add.cpp");
  EXPECT_NE(k.find("BUFFER_NUM = 2;\nvoid Compute"), std::string::npos) << k;
  EXPECT_EQ(k.back(), '\n');
  EXPECT_EQ(a.tree.files.at("op_host/add.cpp"), tree().files.at("op_host/add.cpp"));
}

TEST(Answer, NamingStylesAndFollowOnBlocks) {
  // The path in the fence's info string, a block right after another (same file),
  // markdown decoration around a path, deletion with an empty REPLACE half.
  const AppliedAnswer a = applied(
      "```cpp op_kernel/add.cpp\n"
      "<<<<<<< SEARCH\n"
      "void Compute() {\n"
      "    Add(z, x, y, n);\n"
      "=======\n"
      "void Compute() {\n"
      "    Sub(z, x, y, n);\n"
      ">>>>>>> REPLACE\n"
      "<<<<<<< SEARCH\n"
      "void Other() {\n"
      "    Add(z, x, y, n);\n"
      "}\n"
      "=======\n"
      ">>>>>>> REPLACE\n"
      "```\n"
      "**File: `op_host/add_tiling.h`**\n"
      "<<<<<<< SEARCH\n"
      "struct AddTiling { int n; };   \n"  // trailing blanks do not matter
      "=======\n"
      "struct AddTiling { int n; int tile; };\n"
      ">>>>>>> REPLACE\n");
  EXPECT_EQ(a.changed, (std::vector<std::string>{"op_host/add_tiling.h", "op_kernel/add.cpp"}));
  const std::string& k = a.tree.files.at("op_kernel/add.cpp");
  EXPECT_NE(k.find("Sub(z, x, y, n);"), std::string::npos);
  EXPECT_EQ(k.find("void Other"), std::string::npos) << k;
  EXPECT_EQ(a.tree.files.at("op_host/add_tiling.h"), "struct AddTiling { int n; int tile; };\n");
}

TEST(Answer, WholeFilesInNamedFences) {
  const AppliedAnswer a = applied(
      "Here is the new tiling header.\n"
      "op_host/add_tiling.h\n"
      "```cpp\n"
      "struct AddTiling { long n; };\n"
      "```\n"
      "And an unrelated snippet that names no file:\n"
      "```\n"
      "x = y\n"
      "```\n");
  EXPECT_EQ(a.changed, std::vector<std::string>{"op_host/add_tiling.h"});
  EXPECT_EQ(a.tree.files.at("op_host/add_tiling.h"), "struct AddTiling { long n; };\n");
  const AppliedAnswer b = applied("```c++ add_tiling.h\nstruct AddTiling { char n; };\n```\n");
  EXPECT_EQ(b.tree.files.at("op_host/add_tiling.h"), "struct AddTiling { char n; };\n") << "a unique bare name";
}

TEST(Answer, ReasoningSectionsAndRemovedNote) {
  const ParsedAnswer p = parse_answer(
      "<think>maybe op_kernel/add.cpp\n<<<<<<< SEARCH\nnothing\n</think>\n"
      "**REMOVED:** double buffering of the input queues\n"
      "op_kernel/add.cpp\n<<<<<<< SEARCH\nconstexpr int32_t BUFFER_NUM = 1;\n=======\nconstexpr int32_t BUFFER_NUM = 3;\n"
      ">>>>>>> REPLACE\n",
      "stop", AnswerLimits{});
  ASSERT_EQ(p.edits.size(), 1u);
  EXPECT_EQ(p.removed, "double buffering of the input queues");
  EXPECT_EQ(p.edits[0].search, "constexpr int32_t BUFFER_NUM = 1;");
}

TEST(Answer, EachRefusalHasItsReason) {
  const std::string sr = "<<<<<<< SEARCH\nconstexpr int32_t BUFFER_NUM = 1;\n=======\nconstexpr int32_t BUFFER_NUM = 2;\n"
                         ">>>>>>> REPLACE\n";
  EXPECT_PRED2(starts_with, unusable(""), "empty_answer");
  EXPECT_PRED2(starts_with, unusable("  \n\n"), "empty_answer");
  EXPECT_PRED2(starts_with, unusable(std::string(5000, 'a'), "stop", 1000), "too_long");
  EXPECT_PRED2(starts_with, unusable("I think the kernel is fine as it is."), "no_edits");
  EXPECT_PRED2(starts_with, unusable("```cpp\nint x;\n```\n"), "no_edits");
  EXPECT_NE(unusable("```cpp\nint x;\n```\n").find("names its file"), std::string::npos);
  EXPECT_PRED2(starts_with, unusable(sr), "unnamed_block");
  EXPECT_PRED2(starts_with, unusable("Change this:\n" + sr), "unnamed_block");
  EXPECT_PRED2(starts_with, unusable("op_kernel/add.cpp\n<<<<<<< SEARCH\nx\n>>>>>>> REPLACE\n"), "malformed_block");
  EXPECT_PRED2(starts_with, unusable("op_kernel/add.cpp\n<<<<<<< SEARCH\nx\n=======\ny\n"), "malformed_block");
  EXPECT_PRED2(starts_with, unusable("op_kernel/add.cpp\n<<<<<<< SEARCH\nx\n=======\ny\n", "length"), "truncated");
  EXPECT_PRED2(starts_with, unusable("<think>still thinking", "length"), "truncated");
  EXPECT_PRED2(starts_with, unusable("op_kernel/add.cpp\n<<<<<<< SEARCH\nx\n<<<<<<< SEARCH\n"), "malformed_block");
  EXPECT_PRED2(starts_with, unusable(">>>>>>> REPLACE\n"), "malformed_block");
  EXPECT_PRED2(starts_with, unusable("op_kernel/add.cpp\n<<<<<<< SEARCH\na\n=======\nb\n=======\nc\n>>>>>>> REPLACE\n"),
               "malformed_block");
  EXPECT_PRED2(starts_with, unusable("op_host/add.cpp\n```cpp\nint f();\n"), "malformed_block");
  EXPECT_PRED2(starts_with, unusable("../../etc/passwd\n" + sr), "path_escape");
  EXPECT_PRED2(starts_with, unusable("/etc/passwd\n" + sr), "path_escape");
  EXPECT_PRED2(starts_with, unusable("op_kernel/../../x.cpp\n" + sr), "path_escape");
  EXPECT_PRED2(starts_with, unusable("op_kernel/mul.cpp\n" + sr), "unknown_file");
  EXPECT_NE(unusable("op_kernel/mul.cpp\n" + sr).find("op_host/add_tiling.h"), std::string::npos)
      << "the reason lists the candidate's files";
  EXPECT_PRED2(starts_with, unusable("add.cpp\n" + sr), "ambiguous_file");
  EXPECT_PRED2(starts_with, unusable("op_kernel/add.cpp\n<<<<<<< SEARCH\n\n=======\nint x;\n>>>>>>> REPLACE\n"),
               "empty_search");
  EXPECT_PRED2(starts_with, unusable("op_kernel/add.cpp\n<<<<<<< SEARCH\n    Add(z, x, y, n);\n=======\n    Mul(z, x, y, n);\n"
                                     ">>>>>>> REPLACE\n"),
               "ambiguous_search");
  EXPECT_PRED2(starts_with, unusable("op_kernel/add.cpp\n" + sr + "op_kernel/add.cpp\n" + sr), "search_not_found")
      << "the second block runs on the result of the first";
  EXPECT_PRED2(starts_with,
               unusable("op_kernel/add.cpp\n<<<<<<< SEARCH\nconstexpr int32_t BUFFER_NUM = 1;\n=======\nconstexpr int32_t "
                        "BUFFER_NUM = 1;\n>>>>>>> REPLACE\n"),
               "no_change");
  EXPECT_PRED2(starts_with, unusable("op_kernel/add.cpp\n" + sr + "```cpp op_kernel/add.cpp\nint x;\n```\n"),
               "conflicting_edits");
}

TEST(Answer, SearchNotFoundPointsAtTheNearestMiss) {
  std::string r = unusable("op_kernel/add.cpp\n<<<<<<< SEARCH\nvoid Compute() {\n    Add(z, x, y, m);\n=======\nx\n"
                           ">>>>>>> REPLACE\n");
  EXPECT_PRED2(starts_with, r, "search_not_found");
  EXPECT_NE(r.find("match at file line 3, then SEARCH line 2 `Add(z, x, y, m);` differs from `Add(z, x, y, n);`"),
            std::string::npos)
      << r;
  r = unusable("op_kernel/add.cpp\n<<<<<<< SEARCH\nvoid Missing() {\n=======\nx\n>>>>>>> REPLACE\n");
  EXPECT_NE(r.find("first line `void Missing() {` is not in the file"), std::string::npos) << r;
  r = unusable("op_kernel/add.cpp\n<<<<<<< SEARCH\nvoid Compute() {\nAdd(z, x, y, n);\n=======\nx\n>>>>>>> REPLACE\n");
  EXPECT_NE(r.find("only with different indentation"), std::string::npos) << r;
}

TEST(Answer, FileSizeLimit) {
  const ParsedAnswer p =
      parse_answer("```cpp op_host/add.cpp\n" + std::string(3000, 'x') + "\n```\n", "stop", AnswerLimits{});
  try {
    apply_edits(tree(), p, ApplyLimits{1000});
    FAIL() << "accepted";
  } catch (const AnswerError& e) {
    EXPECT_EQ(e.unusable().code, "file_too_large");
  }
}

TEST(Answer, WrittenCandidateHasEveryFileAndNamesThePackage) {
  testing::ScratchDir d("write");
  const AppliedAnswer a = applied("op_kernel/add.cpp\n<<<<<<< SEARCH\nconstexpr int32_t BUFFER_NUM = 1;\n=======\n"
                                  "constexpr int32_t BUFFER_NUM = 2;\n>>>>>>> REPLACE\n");
  const auto out = d.path() / "nested" / "cand";
  write_candidate(a.tree, out);
  for (const auto& [name, content] : a.tree.files) {
    std::ifstream in(out / name, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    EXPECT_EQ(ss.str(), content) << name;
  }
  std::ifstream toml(out / "candidate.toml");
  std::stringstream ss;
  ss << toml.rdbuf();
  EXPECT_NE(ss.str().find("package = '/pkg/add'"), std::string::npos) << ss.str();
  try {
    write_candidate(a.tree, out);
    FAIL() << "overwrote a candidate";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("already exists"), std::string::npos) << e.what();
  }
  EXPECT_EQ(testing::count_files(d.path()), a.tree.files.size() + 1) << "no partial folder left behind";
}

}  // namespace
}  // namespace aoc::llm
