// Files published for other processes and threads (caches, stores): whole or not at all, no
// temporary left behind, the old file kept when writing fails.
#include "base/published_file.h"

#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <set>
#include <thread>
#include <vector>

#include "base/file_text.h"
#include "scratch_dir.h"

namespace fs = std::filesystem;
using aoc::base::read_text;

namespace {

size_t files_in(const fs::path& dir) {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) ++n;
  return n;
}

TEST(PublishedFile, WritesReplacesAndLeavesNoTemporary) {
  aoc::testing::ScratchDir tmp("published");
  const fs::path f = tmp.path() / "a" / "b" / "entry.json";
  ASSERT_TRUE(aoc::base::publish_text(f, "first"));
  EXPECT_EQ(aoc::base::read_text(f), "first");
  ASSERT_TRUE(aoc::base::publish_text(f, std::string("se\0cond", 7)));
  EXPECT_EQ(aoc::base::read_text(f), std::string("se\0cond", 7));
  EXPECT_EQ(files_in(tmp.path()), 1u);

  const fs::path copy = tmp.path() / "c" / "copy.o";
  ASSERT_TRUE(aoc::base::publish_copy(copy, f));
  EXPECT_EQ(aoc::base::read_text(copy), aoc::base::read_text(f));
  EXPECT_EQ(files_in(tmp.path()), 2u);
}

TEST(PublishedFile, AFailedWriteKeepsTheOldFileAndSaysWhy) {
  aoc::testing::ScratchDir tmp("published");
  const fs::path f = tmp.path() / "entry";
  ASSERT_TRUE(aoc::base::publish_text(f, "old"));
  std::string error;
  // The writer starts a file and then fails: what it began is not published and not left.
  const bool ok = aoc::base::publish(
      f,
      [](const fs::path& t) {
        std::ofstream(t) << "half";
        return false;
      },
      &error);
  EXPECT_FALSE(ok);
  EXPECT_NE(error.find("cannot write"), std::string::npos) << error;
  EXPECT_EQ(aoc::base::read_text(f), "old");
  EXPECT_EQ(files_in(tmp.path()), 1u);

  // A copy of a file that does not exist, and a file whose folder cannot be made (a file is
  // in its place).
  EXPECT_FALSE(aoc::base::publish_copy(tmp.path() / "copy", tmp.path() / "missing", &error));
  EXPECT_FALSE(fs::exists(tmp.path() / "copy"));
  error.clear();
  EXPECT_FALSE(aoc::base::publish_text(f / "below", "x", &error));
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(files_in(tmp.path()), 1u);
}

TEST(PublishedFile, TemporaryNamesAreNeverShared) {
  std::vector<std::thread> threads;
  std::vector<std::vector<std::string>> names(4);
  for (size_t t = 0; t < names.size(); ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 2000; ++i) names[t].push_back(aoc::base::temporary_beside("/cache/x/entry").string());
    });
  for (auto& th : threads) th.join();
  std::set<std::string> all;
  for (const auto& v : names) all.insert(v.begin(), v.end());
  EXPECT_EQ(all.size(), 8000u);
  EXPECT_EQ(all.begin()->rfind("/cache/x/entry.tmp.", 0), 0u) << *all.begin();
}

// Writers on several threads publish the same name while a reader reads it: the reader only
// ever sees one writer's whole text.
TEST(PublishedFile, AReaderSeesOneWholeFile) {
  aoc::testing::ScratchDir tmp("published");
  const fs::path f = tmp.path() / "shared";
  auto text_of = [](int w) { return std::string(200000, static_cast<char>('a' + w)); };
  ASSERT_TRUE(aoc::base::publish_text(f, text_of(0)));
  std::atomic<bool> done{false};
  std::vector<std::thread> writers;
  for (int w = 0; w < 3; ++w)
    writers.emplace_back([&, w] {
      for (int i = 0; i < 40; ++i) EXPECT_TRUE(aoc::base::publish_text(f, text_of(w)));
    });
  size_t reads = 0, torn = 0;
  std::thread reader([&] {
    while (!done) {
      const std::string s = aoc::base::read_text(f);
      ++reads;
      if (s.size() != 200000 || s.find_first_not_of(s[0]) != std::string::npos) ++torn;
    }
  });
  for (auto& th : writers) th.join();
  done = true;
  reader.join();
  EXPECT_GT(reads, 0u);
  EXPECT_EQ(torn, 0u);
  EXPECT_EQ(files_in(tmp.path()), 1u);
}

}  // namespace
