// The compiler identity is asked once per compiler binary and then read from the cache
// folder; a different binary under the same path, or a wrapper script, is asked again.
#include "base/file_text.h"
#include "build/compiler_identity.h"
#include "scratch_dir.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using aoc::base::read_text;
using aoc::build::compiler_identity;

namespace {

std::vector<fs::path> stored(const fs::path& cache) {
  std::vector<fs::path> files;
  if (fs::is_directory(cache / "compiler-id"))
    for (const auto& e : fs::directory_iterator(cache / "compiler-id")) files.push_back(e.path());
  return files;
}

TEST(CompilerIdentity, AskedOnceThenReadFromTheCache) {
  aoc::testing::ScratchDir t("compiler-id");
  const fs::path cc = t.path() / "cc";
  fs::copy_file("/bin/echo", cc);  // a real binary that answers --version and -dumpmachine
  const std::string first = compiler_identity(cc.string(), t.path() / "cache");
  EXPECT_NE(first.find("echo"), std::string::npos) << first;
  EXPECT_NE(first.find("-dumpmachine"), std::string::npos) << first;
  const auto files = stored(t.path() / "cache");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(read_text(files[0]), first);
  // The second call answers from the stored file, not from the binary.
  { std::ofstream(files[0]) << "stored answer"; }
  EXPECT_EQ(compiler_identity(cc.string(), t.path() / "cache"), "stored answer");
}

TEST(CompilerIdentity, AnotherBinaryUnderTheSameNameIsAskedAgain) {
  aoc::testing::ScratchDir t("compiler-id");
  const fs::path cc = t.path() / "cc";
  fs::copy_file("/bin/echo", cc);
  const std::string echo_id = compiler_identity(cc.string(), t.path() / "cache");
  fs::remove(cc);
  fs::copy_file("/bin/true", cc);
  const std::string true_id = compiler_identity(cc.string(), t.path() / "cache");
  EXPECT_NE(true_id, echo_id);
  EXPECT_NE(true_id.find("true"), std::string::npos) << true_id;
  EXPECT_EQ(stored(t.path() / "cache").size(), 2u);
}

TEST(CompilerIdentity, FoundOnThePathLikeTheCompilerItself) {
  aoc::testing::ScratchDir t("compiler-id");
  const std::string id = compiler_identity("echo", t.path() / "cache");
  EXPECT_NE(id.find("-dumpmachine"), std::string::npos) << id;
  EXPECT_EQ(stored(t.path() / "cache").size(), 1u);
}

TEST(CompilerIdentity, AWrapperScriptIsAskedEveryTime) {
  aoc::testing::ScratchDir t("compiler-id");
  const fs::path cc = t.path() / "cc.sh";
  const fs::path count = t.path() / "count";
  { std::ofstream(cc) << "#!/bin/sh\necho asked >> '" << count.string() << "'\necho \"wrapper $1\"\n"; }
  fs::permissions(cc, fs::perms::owner_all);
  EXPECT_EQ(compiler_identity(cc.string(), t.path() / "cache"), "wrapper --version\nwrapper -dumpmachine\n");
  compiler_identity(cc.string(), t.path() / "cache");
  EXPECT_EQ(read_text(count), "asked\nasked\nasked\nasked\n");
  EXPECT_TRUE(stored(t.path() / "cache").empty());
}

TEST(CompilerIdentity, AMissingCompilerIsNotStored) {
  aoc::testing::ScratchDir t("compiler-id");
  compiler_identity((t.path() / "no-such-compiler").string(), t.path() / "cache");
  EXPECT_TRUE(stored(t.path() / "cache").empty());
}

}  // namespace
