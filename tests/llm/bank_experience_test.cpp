// Bank entries as prompt experience (llm/bank_experience.h): a mined entry's diff, stored as the
// removal, is shown as the change that adds the optimization; imported text entries are shown
// as written; the measured effect is put in words; a ranking gives its first k.
#include <gtest/gtest.h>

#include "llm/bank_experience.h"
#include "llm_test_support.h"

namespace aoc::llm {
namespace {

const std::string kRemoval =
    "--- a/op_kernel/add.cpp\n"
    "+++ b/op_kernel/add.cpp\n"
    "@@ -4,3 +4,4 @@ class KernelAdd\n"
    " #include \"kernel_operator.h\"\n"
    "-constexpr int32_t BUFFER_NUM = 2;\n"
    "+constexpr int32_t BUFFER_NUM = 1;\n"
    "+// single\n"
    " constexpr uint32_t BANK_PAD = 256;\n";

TEST(BankExperience, ReversedDiffAddsWhatTheRemovalTookAway) {
  EXPECT_EQ(reverse_unified_diff(kRemoval),
            "--- b/op_kernel/add.cpp\n"
            "+++ a/op_kernel/add.cpp\n"
            "@@ -4,4 +4,3 @@ class KernelAdd\n"
            " #include \"kernel_operator.h\"\n"
            "-constexpr int32_t BUFFER_NUM = 1;\n"
            "-// single\n"
            "+constexpr int32_t BUFFER_NUM = 2;\n"
            " constexpr uint32_t BANK_PAD = 256;\n");
  EXPECT_EQ(reverse_unified_diff(reverse_unified_diff(kRemoval)), kRemoval);
  // A removed line that starts with "-- " is not a file header.
  EXPECT_EQ(reverse_unified_diff("@@ -1 +1 @@\n--- x\n+-- y\n"), "@@ -1 +1 @@\n--- y\n+-- x\n");
  EXPECT_EQ(reverse_unified_diff(""), "");
  EXPECT_EQ(reverse_unified_diff("-a\n+b"), "-b\n+a");
}

TEST(BankExperience, MinedEntriesShowTheForwardDiffAndTheirEffect) {
  aoc::bank::Entry mined = testing::mined_entry("add");
  mined.diff = kRemoval;
  const ExperienceEntry x = as_experience(mined);
  EXPECT_EQ(x.title, mined.title);
  EXPECT_EQ(x.description, mined.description);
  EXPECT_EQ(x.bottleneck, mined.bottleneck);
  EXPECT_EQ(x.diff, reverse_unified_diff(kRemoval));
  EXPECT_EQ(x.effect, "1.066x geomean over 1 cases of add when present (removing it: positive entry)");

  aoc::bank::Entry text;
  text.kind = aoc::bank::kText;
  text.title = "Overlap copy-in with compute";
  text.diff = "-constexpr int32_t BUFFER_NUM = 1;\n+constexpr int32_t BUFFER_NUM = 2;\n";
  EXPECT_EQ(as_experience(text).diff, text.diff) << "imported advice is shown as written";
  EXPECT_EQ(as_experience(text).effect, "");

  std::vector<aoc::bank::Ranked> ranked = {{text, {}}, {mined, {}}};
  const auto top = top_experiences(ranked, 1);
  ASSERT_EQ(top.size(), 1u);
  EXPECT_EQ(top[0].title, text.title);
  EXPECT_EQ(top_experiences(ranked, 5).size(), 2u);
}

}  // namespace
}  // namespace aoc::llm
