// The static check's include rules (eval/include_check.h): absolute paths, paths that climb out
// of the candidate's folders, computed includes, `#pragma GCC dependency` and `__has_include`
// probes outside are refused with file, line and advice; includes inside the candidate (the
// kernel including its op_host tiling header by a relative path) stay legal, and every
// package under ops/ and every kernel in tests/data passes. A candidate including /etc/passwd
// is rejected before any compiler runs.
#include <gtest/gtest.h>

#include <fstream>

#include "eval/include_check.h"
#include "eval_test_support.h"
#include "package/op_package.h"
#include "scratch_dir.h"

using namespace aoc::eval;
namespace fs = std::filesystem;

namespace {

// A candidate folder with op_host/ and op_kernel/, the kernel file holding `kernel`.
struct Scratch {
  aoc::testing::ScratchDir dir{"include-rules"};
  fs::path host() const { return dir.path() / "op_host"; }
  fs::path kernel() const { return dir.path() / "op_kernel"; }
  explicit Scratch(const std::string& kernel_text) {
    fs::create_directories(host());
    fs::create_directories(kernel());
    std::ofstream(host() / "x_tiling.h") << "#pragma once\nstruct XTiling { int n; };\n";
    std::ofstream(kernel() / "x.cpp") << kernel_text;
  }
  IncludeScope scope() const {
    const fs::path headers = aoc::eval::testing::source_root() / "include" / "ascendc";
    return {{headers, host(), kernel()}, {host(), kernel(), dir.path() / "package", headers}};
  }
  std::vector<SourceFinding> check() const {
    const IncludeScope s = scope();
    return check_sources({host(), kernel()}, &s);
  }
};

std::string all(const std::vector<SourceFinding>& fs) {
  std::string s;
  for (const auto& f : fs) s += f.message() + "\n";
  return s;
}

}  // namespace

TEST(IncludeRules, AbsolutePathIsRefusedWithLineAndAdvice) {
  const Scratch c("#include \"kernel_operator.h\"\n\n#include </etc/passwd>\n");
  const auto f = c.check();
  ASSERT_EQ(f.size(), 1u) << all(f);
  EXPECT_EQ(f[0].rule, "include");
  EXPECT_EQ(f[0].line, 3);
  EXPECT_EQ(f[0].file, (c.kernel() / "x.cpp").string());
  EXPECT_NE(f[0].message().find("absolute path"), std::string::npos) << f[0].message();
  EXPECT_NE(f[0].message().find("include only files of the candidate"), std::string::npos) << f[0].message();
  EXPECT_EQ(Scratch("#include \"/etc/hostname\"\n").check().size(), 1u);
}

TEST(IncludeRules, RelativeIncludeInsideTheCandidateIsLegal) {
  const Scratch c("#include \"../op_host/x_tiling.h\"\n#include <../op_host/x_tiling.h>\n#include \"x_tiling.h\"\n"
                    "#include <cstdint>\n#if __has_include(<cstdint>)\n#endif\n");
  const auto f = c.check();
  EXPECT_TRUE(f.empty()) << all(f);
}

TEST(IncludeRules, ParentStepsOutOfTheFoldersAreRefused) {
  for (const std::string inc : {"\"../../../../../../../../../../etc/passwd\"", "<../../../../../../../../../../etc/passwd>",
                                "\"../candidate.toml\"", "\"../op_host/../../x\""}) {
    const Scratch c("int a;\n#include " + inc + "\n");
    std::ofstream(c.dir.path() / "candidate.toml") << "package = \"x\"\n";
    const auto f = c.check();
    ASSERT_EQ(f.size(), 1u) << inc << "\n" << all(f);
    EXPECT_EQ(f[0].line, 2);
    EXPECT_EQ(f[0].rule, "include");
  }
}

// op_host's aclnn API layer is never built (package::host_cpp_files), so its includes of other
// operators' folders are not the candidate's; the same include in a unit that is built, or in the
// kernel folder under an aclnn name, is still refused.
TEST(IncludeRules, TheUnbuiltAclnnLayerOfOpHostIsNotChecked) {
  const Scratch c("int a;\n");
  const std::string outside = "#include \"../../../../../../../../../../etc/passwd\"\n";
  std::ofstream(c.host() / "aclnn_x.cpp") << outside;
  EXPECT_TRUE(c.check().empty()) << all(c.check());
  std::ofstream(c.host() / "x_def.cpp") << "OP_ADD(X);\n" << outside;
  std::ofstream(c.kernel() / "aclnn_y.cpp") << outside;
  const auto f = c.check();
  ASSERT_EQ(f.size(), 2u) << all(f);
  EXPECT_EQ(f[0].file, (c.host() / "x_def.cpp").string());
  EXPECT_EQ(f[1].file, (c.kernel() / "aclnn_y.cpp").string());
}

TEST(IncludeRules, ComputedIncludesAndDependencyPragmasAreRefused) {
  const Scratch c(
      "#define P </etc/passwd>\n"
      "#include P\n"
      "#pragma GCC dependency \"/etc/passwd\"\n"
      "_Pragma(\"GCC dependency \\\"/etc/shadow\\\"\")\n"
      "#if __has_include(</etc/passwd>)\n#endif\n"
      "#if __has_include(P)\n#endif\n"
      "%:include </etc/passwd>\n"
      "#inc\\\nlude </etc/passwd>\n"
      "#include /* c */ </etc/group>\n");
  const auto f = c.check();
  std::vector<int> lines;
  for (const auto& x : f) lines.push_back(x.line);
  EXPECT_EQ(lines, (std::vector<int>{2, 3, 4, 5, 7, 9, 10, 12})) << all(f);
  EXPECT_NE(f[0].message().find("computed include"), std::string::npos) << f[0].message();
  EXPECT_NE(f[1].message().find("dependency"), std::string::npos) << f[1].message();
}

TEST(IncludeRules, CommentsAndStringsAreNotDirectives) {
  const Scratch c("// #include </etc/passwd>\n/*\n#include </etc/passwd>\n*/\nconst char* s = \"#include </etc/passwd>\";\n");
  const auto f = c.check();
  EXPECT_TRUE(f.empty()) << all(f);
}

TEST(IncludeRules, LinkOutOfTheCandidateIsRefused) {
  const Scratch c("#include \"secret.h\"\n");
  fs::create_symlink("/etc/passwd", c.kernel() / "secret.h");
  const auto f = c.check();
  ASSERT_EQ(f.size(), 1u) << all(f);
  EXPECT_NE(f[0].text.find("symbolic link"), std::string::npos);
}

TEST(IncludeRules, EveryPackageAndTestKernelPasses) {
  const fs::path root = aoc::eval::testing::source_root();
  const fs::path headers = root / "include" / "ascendc";
  std::vector<fs::path> packages = aoc::package::find_op_packages(root / "ops");
  ASSERT_GT(packages.size(), 50u);
  size_t checked = 0;
  for (const auto& dir : packages) {
    for (const fs::path variant : {dir, dir / "expert"}) {
      if (!fs::is_directory(variant / "op_kernel")) continue;
      const IncludeScope s{{headers, variant / "op_host", variant / "op_kernel"},
                           {variant / "op_host", variant / "op_kernel", dir, headers}};
      for (const auto& f : check_sources({variant / "op_host", variant / "op_kernel"}, &s))
        if (f.rule == "include") ADD_FAILURE() << f.message();
      ++checked;
    }
  }
  // The kernels of tests/data: every folder holding an op_kernel/ (its op_host/ is its own or the package's).
  for (const auto& e : fs::recursive_directory_iterator(root / "tests" / "data")) {
    if (!e.is_directory() || e.path().filename() != "op_kernel") continue;
    const fs::path cand = e.path().parent_path();
    if (cand.filename() == "include_host_file") continue;  // the hostile corpus's include of /etc/passwd
    const IncludeScope s{{headers, cand / "op_host", cand / "op_kernel"}, {cand / "op_host", cand / "op_kernel", headers}};
    for (const auto& f : check_sources({cand / "op_host", cand / "op_kernel"}, &s))
      if (f.rule == "include") ADD_FAILURE() << f.message();
    ++checked;
  }
  EXPECT_GT(checked, packages.size());
}

// The whole evaluation: rejected by the static check, naming the line, and no compiler started.
TEST(IncludeRules, CandidateIncludingPasswdIsRejectedBeforeTheCompilerRuns) {
  using namespace aoc::eval::testing;
  aoc::testing::ScratchDir dir("include-passwd");
  fs::copy(add_package() / "op_kernel", dir.path() / "op_kernel", fs::copy_options::recursive);
  std::ofstream(dir.path() / "op_kernel" / "add.cpp", std::ios::app) << "\n#include </etc/passwd>\n";
  std::ofstream(dir.path() / "candidate.toml") << "package = \"" << add_package().string() << "\"\n";
  const uint64_t runs = shared_builder().compiler_runs();
  const CandidateReport r = evaluate_dir(dir.path(), test_options({"tiny_fp16"}));
  EXPECT_EQ(r.verdict, Verdict::Rejected) << r.message;
  EXPECT_NE(r.message.find("add.cpp:"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("/etc/passwd"), std::string::npos) << r.message;
  EXPECT_TRUE(r.diagnostics.empty());
  EXPECT_EQ(shared_builder().compiler_runs(), runs);
}
