// The compiler in the sandbox (build/compiler_sandbox.h): it cannot read a file outside the
// build's folders nor write outside its output folder, what it says about files outside the
// folders never reaches the diagnostics, a candidate whose computed include got past the
// static check still cannot have /etc/passwd compiled, and the build cache keeps hitting.
#include <gtest/gtest.h>

#include <fstream>

#include "base/sandbox.h"
#include "build/compiler_sandbox.h"
#include "build/foreign_lines.h"
#include "build/op_build.h"
#include "eval_test_support.h"
#include "scratch_dir.h"

using namespace aoc::eval;
namespace fs = std::filesystem;

namespace {

aoc::build::Builder make_builder(const fs::path& cache) {
  aoc::build::BuilderOptions o = aoc::build::default_builder_options();
  o.cache_dir = cache;
  return aoc::build::Builder(o);
}

bool namespaced() {
  aoc::testing::ScratchDir d("compiler-sandbox");
  return aoc::build::run_compiler_sandboxed({"g++", "--version"}, d.path(), {}).isolation == "namespaces";
}

std::string diagnostics_text(const aoc::build::BuildResult& r) {
  std::string s;
  for (const auto& d : r.diagnostics) s += to_string(d) + "\n";
  return s;
}

// The first line of /etc/passwd ("root:x:0:0:..."): what the unsandboxed compiler quoted.
std::string passwd_first_line() {
  std::ifstream in("/etc/passwd");
  std::string line;
  std::getline(in, line);
  return line;
}

}  // namespace

TEST(CompilerSandbox, AFileOutsideTheBuildsFoldersCannotBeRead) {
  aoc::testing::ScratchDir secret("compiler-secret");
  aoc::testing::ScratchDir src("compiler-src");
  aoc::testing::ScratchDir cache("compiler-cache");
  std::ofstream(secret.path() / "secret.h") << "int aoc_secret_marker_4711 oops;\n";
  std::ofstream(src.path() / "f.cpp") << "#include \"" << (secret.path() / "secret.h").string() << "\"\n";
  aoc::build::Builder b = make_builder(cache.path());
  const aoc::build::BuildResult r = b.build({"secret", {{src.path() / "f.cpp", {}}}, {}, {src.path()}});
  ASSERT_FALSE(r.ok);
  // Read, the header's broken line would be quoted in the messages; in the sandbox it is absent.
  EXPECT_EQ(r.log.find("aoc_secret_marker_4711"), std::string::npos) << r.log;
  EXPECT_EQ(diagnostics_text(r).find("aoc_secret_marker_4711"), std::string::npos);
  if (r.isolation == "namespaces") {
    EXPECT_NE(r.log.find("No such file or directory"), std::string::npos) << r.log;
  } else {
    EXPECT_NE(r.log.find("withheld"), std::string::npos) << r.isolation << "\n" << r.log;
  }
}

TEST(CompilerSandbox, ItsOwnFoldersAreReadable) {
  aoc::testing::ScratchDir src("compiler-src");
  aoc::testing::ScratchDir inc("compiler-inc");
  aoc::testing::ScratchDir cache("compiler-cache");
  std::ofstream(inc.path() / "answer.h") << "#define ANSWER 42\n";
  std::ofstream(src.path() / "f.cpp") << "#include \"answer.h\"\nextern \"C\" int answer() { return ANSWER; }\n";
  aoc::build::Builder b = make_builder(cache.path());
  const aoc::build::BuildResult r = b.build({"ok", {{src.path() / "f.cpp", {}}}, {"-I" + inc.path().string()}, {src.path()}});
  EXPECT_TRUE(r.ok) << r.log;
  EXPECT_FALSE(r.isolation.empty());
  EXPECT_TRUE(b.build({"ok", {{src.path() / "f.cpp", {}}}, {"-I" + inc.path().string()}, {src.path()}}).cache_hit);
}

// A folder named through a symbolic link is seen under that name (the command line's).
TEST(CompilerSandbox, AFolderNamedThroughALinkIsReadable) {
  aoc::testing::ScratchDir src("compiler-src");
  aoc::testing::ScratchDir inc("compiler-inc");
  aoc::testing::ScratchDir links("compiler-links");
  aoc::testing::ScratchDir cache("compiler-cache");
  std::ofstream(inc.path() / "answer.h") << "#define ANSWER 42\n";
  fs::create_directory_symlink(inc.path(), links.path() / "inc");
  std::ofstream(src.path() / "f.cpp") << "#include \"answer.h\"\nextern \"C\" int answer() { return ANSWER; }\n";
  aoc::build::Builder b = make_builder(cache.path());
  const aoc::build::BuildResult r =
      b.build({"linked", {{src.path() / "f.cpp", {}}}, {"-I" + (links.path() / "inc").string()}, {src.path()}});
  EXPECT_TRUE(r.ok) << r.log;
}

TEST(CompilerSandbox, PasswdIsNeverQuoted) {
  aoc::testing::ScratchDir src("compiler-src");
  aoc::testing::ScratchDir cache("compiler-cache");
  std::ofstream(src.path() / "f.cpp") << "#include </etc/passwd>\nint x;\n";
  aoc::build::Builder b = make_builder(cache.path());
  const aoc::build::BuildResult r = b.build({"passwd", {{src.path() / "f.cpp", {}}}, {}, {src.path()}});
  ASSERT_FALSE(r.ok);
  const std::string first = passwd_first_line();
  ASSERT_FALSE(first.empty());
  EXPECT_EQ(r.log.find(first), std::string::npos) << r.log;
  EXPECT_EQ(r.log.find(first.substr(0, first.find(':') + 1) + "x:"), std::string::npos) << r.log;
  for (const auto& d : r.diagnostics) EXPECT_NE(d.file, "/etc/passwd") << to_string(d);
  // One fatal error (the missing file), not a diagnostic per line of the file.
  EXPECT_LE(aoc::build::errors_only(r.diagnostics).size(), 1u) << diagnostics_text(r);
}

TEST(CompilerSandbox, WritesOnlyInItsOutputFolder) {
  if (!namespaced()) GTEST_SKIP() << "namespaces unavailable here";
  aoc::testing::ScratchDir src("compiler-src");
  aoc::testing::ScratchDir work("compiler-work");
  aoc::testing::ScratchDir elsewhere("compiler-elsewhere");
  std::ofstream(src.path() / "f.cpp") << "int f() { return 1; }\n";
  const fs::path outside = elsewhere.path() / "f.o";
  const aoc::build::CompilerRun bad = aoc::build::run_compiler_sandboxed({"g++", "-c", (src.path() / "f.cpp").string(), "-o", outside.string()},
                                                 work.path(), {src.path(), elsewhere.path()});
  EXPECT_NE(bad.result.exit_code, 0) << bad.result.output;
  EXPECT_FALSE(fs::exists(outside));
  const aoc::build::CompilerRun good = aoc::build::run_compiler_sandboxed(
      {"g++", "-c", (src.path() / "f.cpp").string(), "-o", (work.path() / "f.o").string()}, work.path(), {src.path()});
  EXPECT_EQ(good.result.exit_code, 0) << good.result.output;
  EXPECT_TRUE(fs::exists(work.path() / "f.o"));
  EXPECT_EQ(good.isolation, "namespaces");
}

// A computed include the static check refuses; built anyway (the check bypassed), the
// sandboxed compiler still does not read the file.
TEST(CompilerSandbox, AComputedIncludeOfPasswdIsRejectedAndCannotBeCompiledAnyway) {
  using namespace aoc::eval::testing;
  aoc::testing::ScratchDir dir("compiler-computed");
  fs::copy(add_package() / "op_kernel", dir.path() / "op_kernel", fs::copy_options::recursive);
  std::ofstream(dir.path() / "op_kernel" / "add.cpp", std::ios::app) << "\n#define AOC_P </etc/passwd>\n#include AOC_P\n";
  std::ofstream(dir.path() / "candidate.toml") << "package = \"" << add_package().string() << "\"\n";
  const CandidateReport r = evaluate_dir(dir.path(), test_options({"tiny_fp16"}));
  EXPECT_EQ(r.verdict, Verdict::Rejected) << r.message;
  EXPECT_NE(r.message.find("computed include"), std::string::npos) << r.message;

  const aoc::package::OpPackage p = aoc::package::load_op_package(add_package());
  const aoc::build::SourceDirs dirs{add_package() / "op_host", dir.path() / "op_kernel"};
  aoc::testing::ScratchDir cache("compiler-cache");  // a cold cache: the compiler runs
  aoc::build::Builder builder = make_builder(cache.path());
  const aoc::build::BuildResult b = builder.build(aoc::build::kernel_build_request(p, 0, dirs, source_root()));
  EXPECT_FALSE(b.cache_hit);
  // The precompiled headers (kernel_operator.h for the kernel, the host API for op_host) were
  // built in the sandbox too (each in a folder of its own, then moved).
  size_t headers = 0;
  for (const auto& e : fs::recursive_directory_iterator(cache.path() / "pch")) headers += e.path().extension() == ".gch";
  EXPECT_EQ(headers, 2u);
  EXPECT_EQ(b.log.find("precompiled header not built"), std::string::npos) << b.log;
  ASSERT_FALSE(b.ok);
  const std::string first = passwd_first_line();
  EXPECT_EQ(b.log.find(first), std::string::npos) << b.log;
  EXPECT_EQ(diagnostics_text(b).find(first.substr(0, first.find(':'))  + ":x:"), std::string::npos);
  if (b.isolation == "namespaces") EXPECT_NE(b.log.find("No such file or directory"), std::string::npos) << b.log;
  else EXPECT_NE(b.log.find("withheld"), std::string::npos) << b.isolation << "\n" << b.log;
  // Read back from the cache, the failure says the same.
  const aoc::build::BuildResult again = builder.build(aoc::build::kernel_build_request(p, 0, dirs, source_root()));
  EXPECT_TRUE(again.cache_hit);
  EXPECT_EQ(again.log.find(first), std::string::npos) << again.log;
  // Messages about the candidate's own file name it, not the staged copy.
  EXPECT_NE(b.first_error().find((dir.path() / "op_kernel" / "add.cpp").string()), std::string::npos) << b.first_error();
}

TEST(CompilerSandbox, ForeignLinesAreWithheld) {
  const std::string log =
      "/build/f.cpp:1:10: error: something\n"
      "    1 | #include </etc/passwd>\n"
      "      |          ^\n"
      "In file included from /build/f.cpp:1:\n"
      "/etc/passwd:1:5: error: 'root' does not name a type\n"
      "    1 | root:x:0:0:root:/root:/bin/bash\n"
      "      | ^~~~\n"
      "/etc/passwd: In function 'int x()':\n"
      "/usr/include/c++/12/vector:3: note: fine\n"
      "compilation terminated.\n";
  const std::string out = aoc::build::withhold_foreign_lines(log, {"/build", "/usr"});
  EXPECT_EQ(out.find("root:x"), std::string::npos) << out;
  EXPECT_EQ(out.find("'root'"), std::string::npos) << out;
  EXPECT_EQ(out.find("/etc/passwd: In"), std::string::npos) << out;
  EXPECT_NE(out.find("/build/f.cpp:1:10: error: something"), std::string::npos) << out;
  EXPECT_NE(out.find("#include </etc/passwd>"), std::string::npos) << out;  // the candidate's own line
  EXPECT_NE(out.find("/usr/include/c++/12/vector:3"), std::string::npos) << out;
  EXPECT_NE(out.find("compilation terminated."), std::string::npos) << out;
  EXPECT_NE(out.find("(4 lines of compiler output"), std::string::npos) << out;
}

// A failure stored before the compiler was sandboxed (the same key) is withheld when read back.
TEST(CompilerSandbox, AStoredFailureQuotingAForeignFileIsWithheldOnReading) {
  aoc::testing::ScratchDir src("compiler-src");
  aoc::testing::ScratchDir cache("compiler-cache");
  std::ofstream(src.path() / "f.cpp") << "#include </etc/passwd>\nint x;\n";
  aoc::build::Builder b = make_builder(cache.path());
  const aoc::build::BuildRequest req{"stored", {{src.path() / "f.cpp", {}}}, {}, {src.path()}};
  ASSERT_FALSE(b.build(req).ok);
  // The stored failure (keyed by the staged request): the one .fail file of this cache.
  fs::path stored;
  for (const auto& e : fs::recursive_directory_iterator(cache.path()))
    if (e.path().extension() == ".fail") stored = e.path();
  ASSERT_FALSE(stored.empty());
  std::ofstream(stored) << "/etc/passwd:1:5: error: 'aoc_quoted_4711' does not name a type\n"
                        << "    1 | aoc_quoted_4711:x:0:0\n      | ^~~~\n";
  const aoc::build::BuildResult r = b.build(req);
  EXPECT_TRUE(r.cache_hit);
  EXPECT_EQ(r.log.find("aoc_quoted_4711"), std::string::npos) << r.log;
  EXPECT_TRUE(r.diagnostics.empty()) << to_string(r.diagnostics.front());
}
