// Launches of single-file kernel programs rewritten for the CPU runtime: every
// `kernel<<<cfg>>>(args)` outside comments and literals, with templates, casts and nested
// parentheses in the configuration; the lines stay where they were; an unclosed launch is an
// error naming its line.
#include <gtest/gtest.h>

#include <algorithm>

#include "build/program_source.h"

namespace {

using aoc::build::rewrite_launches;

TEST(ProgramSource, RewritesEachLaunch) {
  const auto r = rewrite_launches("add_custom<blockLength><<<numBlocks, 0, stream>>>(x, y, z);\n"
                                  "k<<<f(a, (b)), nullptr, s>>>();\n");
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(r.launches, 2);
  EXPECT_EQ(r.text,
            "add_custom<blockLength> * ::aoc::runtime::chevron(numBlocks, 0, stream)(x, y, z);\n"
            "k * ::aoc::runtime::chevron(f(a, (b)), nullptr, s)();\n");
}

TEST(ProgramSource, LeavesCommentsLiteralsAndNestedTemplatesAlone) {
  const std::string src = "// k<<<1, 0, s>>>(x);\n/* k<<<2, 0, s>>>(x); */\nconst char* t = \"<<<3>>>\";\n"
                          "std::vector<std::vector<std::pair<int, int>>> v;\n";
  const auto r = rewrite_launches(src);
  EXPECT_EQ(r.launches, 0);
  EXPECT_EQ(r.text, src);
}

TEST(ProgramSource, KeepsLinesAndReportsAnUnclosedLaunch) {
  const auto multi = rewrite_launches("k<<<blocks,\n  nullptr,\n  stream>>>(x);\nint after = __LINE__;\n");
  EXPECT_EQ(std::count(multi.text.begin(), multi.text.end(), '\n'), 4);
  const auto bad = rewrite_launches("int a;\nk<<<1, 0, s(x);\n");
  EXPECT_EQ(bad.error, "line 2: a launch `<<<` without its closing `>>>`");
}

}  // namespace
