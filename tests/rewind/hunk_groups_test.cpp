// Hunks reverted together: the group of a hunk is grown by following the parser's messages and
// then trimmed to what the parser needs. First on hunks whose "parser" is a rule written here
// (which hunk needs which), then on relu's expert with the real rewriter's parser, where the
// float16 compute path is spread over hunks that only parse reverted together.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "eval/candidate.h"
#include "rewind/hunk_groups.h"
#include "rewrite/motif_states.h"
#include "scratch_dir.h"

namespace fs = std::filesystem;
using aoc::rewind::group_of;
using aoc::rewind::Hunk;

namespace {

Hunk hunk(const std::string& file, size_t line, const std::string& minus, const std::string& plus) {
  Hunk h;
  h.file = file;
  h.base_start = h.exp_start = line;
  h.base_count = h.exp_count = 1;
  h.text = "--- a/" + file + "\n+++ b/" + file + "\n@@ -" + std::to_string(line) + " +" + std::to_string(line) + " @@\n" +
           " unchanged kScale line\n-" + minus + "\n+" + plus + "\n";
  return h;
}

// A parser of the reverted sources, as a rule: hunk k (a key) cannot be reverted without every
// hunk of needs[k], and says so by quoting `message[k]`. Counts its calls.
struct RuleParser {
  std::map<size_t, std::set<size_t>> needs;
  std::map<size_t, std::string> message;
  size_t calls = 0;
  std::string operator()(const std::vector<size_t>& group) {
    ++calls;
    EXPECT_TRUE(std::is_sorted(group.begin(), group.end()));
    for (size_t k : group)
      for (size_t need : needs[k])
        if (std::find(group.begin(), group.end(), need) == group.end()) return message[k];
    return "";
  }
};

}  // namespace

TEST(HunkGroups, QuotedIdentifiersAndWholeWordsOfChangedLines) {
  EXPECT_EQ(aoc::rewind::quoted_identifiers("k.cpp:40: use of undeclared identifier 'COMPUTE_IN_FLOAT'"),
            std::vector<std::string>{"COMPUTE_IN_FLOAT"});
  EXPECT_EQ(aoc::rewind::quoted_identifiers("no member named 'tileLen' in 'Tiling<half>'; 'tileLen' again, '2x'"),
            std::vector<std::string>{"tileLen"});
  EXPECT_TRUE(aoc::rewind::quoted_identifiers("expected ';' after expression").empty());
  const Hunk h = hunk("op_kernel/k.cpp", 10, "uint32_t tileLen = 0;", "uint32_t tileLength = 0;");
  EXPECT_TRUE(aoc::rewind::names_identifier(h, "tileLen"));
  EXPECT_TRUE(aoc::rewind::names_identifier(h, "tileLength"));
  EXPECT_FALSE(aoc::rewind::names_identifier(h, "tile"));    // not a whole word
  EXPECT_FALSE(aoc::rewind::names_identifier(h, "kScale"));  // only in a context line
  EXPECT_EQ(aoc::rewind::group_label({1, 3, 4}), "1+3+4");
}

TEST(HunkGroups, GrowsByTheNamedIdentifiersAndKeepsOnlyWhatTheParserNeeds) {
  const std::vector<Hunk> hunks = {
      hunk("op_kernel/k.cpp", 5, "constexpr bool kFloat = true;", ""),              // 0: declares kFloat
      hunk("op_kernel/k.cpp", 20, "if constexpr (kFloat) { Cast(a, b); }", "Cast(a, b);"),  // 1: uses it
      hunk("op_kernel/k.cpp", 30, "// kFloat: compute in float", ""),               // 2: names it, not needed
      hunk("op_kernel/k.cpp", 40, "x = 1;", "x = 2;"),                              // 3: parses alone
      hunk("op_host/h.cpp", 7, "int n = 1;", "int n = 2;"),                          // 4: unrelated
  };
  RuleParser p;
  p.needs[1] = {0};
  p.message[1] = "k.cpp:20: use of undeclared identifier 'kFloat'";
  const aoc::rewind::ParseCheck parse = [&](const std::vector<size_t>& g) { return p(g); };

  auto g = group_of(3, hunks, parse);
  EXPECT_EQ(g.members, std::vector<size_t>{3});
  EXPECT_TRUE(g.failure.empty());
  EXPECT_EQ(p.calls, 1u);

  // 1 pulls in 0 and 2 (both name kFloat); 2 is dropped again since {0, 1} parses.
  g = group_of(1, hunks, parse);
  EXPECT_EQ(g.members, (std::vector<size_t>{0, 1}));
  EXPECT_TRUE(g.failure.empty());

  // A message that quotes no identifier pulls in the nearest hunk of the same file.
  RuleParser q;
  q.needs[3] = {2};
  q.message[3] = "k.cpp:41: expected '}'";
  g = group_of(3, hunks, [&](const std::vector<size_t>& grp) { return q(grp); });
  EXPECT_EQ(g.members, (std::vector<size_t>{2, 3}));

  // A tiling field's setter: the hunk that names the field is pulled in.
  const std::vector<Hunk> host = {
      hunk("op_host/h.cpp", 30, "tiling.set_tileNum(n);", "tiling.set_tileLen(n);"),
      hunk("op_host/h_tiling.h", 4, "TILING_DATA_FIELD_DEF(uint32_t, tileNum);", "TILING_DATA_FIELD_DEF(uint32_t, tileLen);"),
  };
  RuleParser t;
  t.needs[0] = {1};
  t.message[0] = "h.cpp:30: no member named 'set_tileNum' in 'optiling::TilingData'; did you mean 'set_tileLen'?";
  g = group_of(0, host, [&](const std::vector<size_t>& grp) { return t(grp); });
  EXPECT_EQ(g.members, (std::vector<size_t>{0, 1}));
  EXPECT_TRUE(g.failure.empty()) << g.failure;

  // A message that leads nowhere in the same file: the first hunk of another file is tried.
  RuleParser w;
  w.needs[4] = {0};
  w.message[4] = "h.cpp:7: unknown type name 'Widget'";
  g = group_of(4, hunks, [&](const std::vector<size_t>& grp) { return w(grp); });
  EXPECT_EQ(g.members, (std::vector<size_t>{0, 4}));

  // A need that nothing leads to within the size allowed: the group says why it stopped.
  RuleParser r;
  r.needs[4] = {3};
  r.message[4] = "h.cpp:7: unknown type name 'Widget'";
  g = group_of(4, hunks, [&](const std::vector<size_t>& grp) { return r(grp); }, 3);
  EXPECT_EQ(g.members, (std::vector<size_t>{0, 1, 4}));
  EXPECT_EQ(g.failure, r.message[4]);

  // Nor beyond the size allowed.
  g = group_of(1, hunks, parse, 2);
  EXPECT_FALSE(g.failure.empty());
  EXPECT_EQ(g.members, std::vector<size_t>{1});
}

// relu's expert computes float16 natively where the baseline casts to float: the expert's
// COMPUTE_IN_FLOAT constant (bfloat16 only), its use in the size of the float tiles and the
// native branch of Compute are three hunks.
TEST(HunkGroups, ReluFloat16PathRevertsAsOneGroupThroughTheRealParser) {
  const fs::path pkg = fs::path(AOC_SOURCE_DIR) / "ops" / "activation" / "relu";
  const auto hunks = aoc::rewind::expert_hunks(pkg);
  aoc::testing::ScratchDir scratch("hunk-groups");
  std::map<std::string, std::string> seen;
  const aoc::rewind::ParseCheck parse = [&](const std::vector<size_t>& members) {
    const std::string label = aoc::rewind::group_label(members);
    if (seen.count(label)) return seen[label];
    std::vector<Hunk> group;
    for (size_t i : members) group.push_back(hunks.at(i));
    const fs::path dir = scratch.path() / label;
    aoc::rewind::write_reverted(pkg, group, dir);
    try {
      aoc::rewrite::detect_motifs(aoc::eval::load_candidate(dir, "test-headers"), "native_half");
      seen[label] = "";
    } catch (const std::exception& e) {
      seen[label] = e.what();
    }
    return seen[label];
  };
  // The hunk that adds the expert's constant: reverted alone, its uses are left undeclared.
  size_t start = hunks.size();
  for (size_t i = 0; i < hunks.size() && start == hunks.size(); ++i)
    if (hunks[i].text.find("\n+    static constexpr bool COMPUTE_IN_FLOAT") != std::string::npos) start = i;
  ASSERT_LT(start, hunks.size()) << "no hunk of relu's expert declares COMPUTE_IN_FLOAT";
  const auto g = group_of(start, hunks, parse);
  ASSERT_TRUE(g.failure.empty()) << g.failure;
  ASSERT_GE(g.members.size(), 2u);
  EXPECT_NE(seen[std::to_string(start)].find("do not parse"), std::string::npos) << seen[std::to_string(start)];
  // The group parses, and no member but the first can leave it.
  EXPECT_EQ(seen[aoc::rewind::group_label(g.members)], "");
  for (size_t drop : g.members) {
    if (drop == start) continue;
    std::vector<size_t> without;
    for (size_t i : g.members)
      if (i != drop) without.push_back(i);
    EXPECT_NE(parse(without), "") << "hunk " << drop << " is not needed";
  }
  // Reverted together, the kernel casts to float again: native_half is gone.
  const auto states = aoc::rewrite::detect_motifs(
      aoc::eval::load_candidate(scratch.path() / aoc::rewind::group_label(g.members), "test-headers"), "native_half");
  ASSERT_EQ(states.size(), 1u);
  EXPECT_NE(states[0].state, aoc::rewrite::State::Present) << states[0].reason;
  const auto expert = aoc::rewrite::detect_motifs(aoc::eval::load_candidate(pkg / "expert", "test-headers"), "native_half");
  EXPECT_EQ(expert.at(0).state, aoc::rewrite::State::Present);
}
