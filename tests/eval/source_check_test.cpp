// The static source check: each rule fires on its facility with the right line,
// comments and ordinary kernel code do not, and every package in ops/ passes.
#include <gtest/gtest.h>

#include <fstream>

#include "eval/source_check.h"
#include "package/op_package.h"
#include "scratch_dir.h"

using namespace aoc::eval;

namespace {
std::vector<std::string> rules_of(const std::string& code) {
  std::vector<std::string> out;
  for (const auto& f : check_source_text("k.cpp", code)) out.push_back(f.rule);
  return out;
}
bool fires(const std::string& code, const std::string& rule) {
  for (const auto& r : rules_of(code))
    if (r == rule) return true;
  return false;
}
}  // namespace

TEST(SourceCheck, EachRuleFires) {
  EXPECT_TRUE(fires("FILE* f = fopen(\"a\", \"w\");", "file-io"));
  EXPECT_TRUE(fires("std::ofstream out(\"a\");", "file-io"));
  EXPECT_TRUE(fires("#include <fstream>", "file-io"));
  EXPECT_TRUE(fires("int s = socket(2, 1, 0);", "network"));
  EXPECT_TRUE(fires("std::thread t([]{});", "threads"));
  EXPECT_TRUE(fires("pthread_create(&t, 0, f, 0);", "threads"));
  EXPECT_TRUE(fires("std::system(\"ls\");", "processes"));
  EXPECT_TRUE(fires("pid_t p = fork();", "processes"));
  EXPECT_TRUE(fires("auto t = std::chrono::steady_clock::now();", "clock"));
  EXPECT_TRUE(fires("long t = time(nullptr);", "clock"));
  EXPECT_TRUE(fires("const char* h = getenv(\"HOME\");", "environment"));
  EXPECT_TRUE(fires("asm volatile(\"nop\");", "asm"));
  EXPECT_TRUE(fires("syscall(39);", "syscall"));
  EXPECT_TRUE(fires("void* h = dlopen(\"x.so\", 1);", "dynamic-loading"));
  EXPECT_TRUE(fires("const char* p = \"/proc/self/maps\";", "proc-fs"));
  EXPECT_TRUE(fires("int* p = reinterpret_cast<int*>(0x7fff0000);", "int-to-pointer"));
  EXPECT_TRUE(fires("int* p = (int*)4096;", "int-to-pointer"));
  EXPECT_TRUE(fires("auto p = reinterpret_cast<float*>(uintptr_t(a) + 64);", "int-to-pointer"));
}

TEST(SourceCheck, NamesTheLineAndIgnoresCommentsAndStrings) {
  const auto f = check_source_text("k.cpp", "// fopen in a comment\n/* system() */\nint a = 1;\nauto x = getenv(\"A\");\n");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].line, 4);
  EXPECT_EQ(f[0].rule, "environment");
  EXPECT_NE(f[0].message().find("k.cpp:4: rule 'environment'"), std::string::npos) << f[0].message();
  EXPECT_TRUE(rules_of("const char* s = \"fopen system fork\";").empty());
}

TEST(SourceCheck, OrdinaryKernelCodePasses) {
  EXPECT_TRUE(rules_of("xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x + offset, len);\n"
                       "AscendC::DataCopy(xLocal, xGm[i * tile], tile);\n"
                       "pipe.InitBuffer(inQueueX, 2, tile * sizeof(half));\n"
                       "outQueue.FreeTensor(z); float t = (float)3; int k = a * (b) * 4;\n")
                  .empty());
}

TEST(SourceCheck, EveryPackageInTheSuitePasses) {
  for (const auto& dir : aoc::package::find_op_packages(std::filesystem::path(AOC_SOURCE_DIR) / "ops")) {
    const auto f = check_sources({dir / "op_host", dir / "op_kernel"});
    EXPECT_TRUE(f.empty()) << dir << ": " << (f.empty() ? "" : f.front().message());
  }
}

// A text is checked once per process; the same offending text in two folders is reported in each
// with its own file name.
TEST(SourceCheck, TheSameTextInTwoFoldersNamesEachFile) {
  aoc::testing::ScratchDir a("source-check");
  aoc::testing::ScratchDir b("source-check");
  const std::string text = "int ok = 1;\nauto x = getenv(\"HOME\");\n";
  std::ofstream(a.path() / "k.cpp") << text;
  std::ofstream(b.path() / "k.cpp") << text;
  for (const auto* d : {&a, &b}) {
    const auto f = check_sources({d->path()});
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].file, (d->path() / "k.cpp").string());
    EXPECT_EQ(f[0].line, 2);
    EXPECT_EQ(f[0].rule, "environment");
  }
}
