// run_contained on its own: answers of any size arrive whole, a throw arrives as its message,
// and a child that dies or exits without answering is an error, not a partial answer.
#include "eval/contained.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <stdexcept>

namespace {

using aoc::eval::run_contained;

TEST(Contained, SmallAndEmptyAnswers) {
  auto r = run_contained("a function", [] { return std::string("forty-two"); }, 10);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.answer, "forty-two");
  r = run_contained("a function", [] { return std::string(); }, 10);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.answer, "");
}

TEST(Contained, ALargeAnswerArrivesWhole) {
  // 48 MiB with a position-dependent pattern: a lost or reordered piece shows.
  const size_t n = size_t(48) << 20;
  auto r = run_contained("a function", [n] {
    std::string s(n, '\0');
    for (size_t i = 0; i < n; ++i) s[i] = char((i * 131) >> 7);
    return s;
  }, 60);
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.answer.size(), n);
  for (size_t i = 0; i < n; i += 4093) ASSERT_EQ(r.answer[i], char((i * 131) >> 7)) << i;
  EXPECT_EQ(r.answer.back(), char(((n - 1) * 131) >> 7));
}

TEST(Contained, AThrowIsItsMessage) {
  auto r = run_contained("the golden", []() -> std::string { throw std::runtime_error("bad shape"); }, 10);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "the golden threw: bad shape");
}

TEST(Contained, ExitAndCrashAreErrors) {
  auto r = run_contained("the golden", []() -> std::string { std::_Exit(0); }, 10);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("without an answer"), std::string::npos) << r.error;
  r = run_contained("the golden", []() -> std::string { std::abort(); }, 10);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("killed by"), std::string::npos) << r.error;
}

}  // namespace
