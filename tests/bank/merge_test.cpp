// Merging the entries one bank gained into another (bank/merge.h): only those above the base id,
// in id order, each once; a merge redone adds nothing and maps every id to the same entry.
#include <gtest/gtest.h>

#include "bank/merge.h"
#include "scratch_dir.h"

namespace {

aoc::bank::Entry entry(const std::string& motif, const std::string& diff) {
  aoc::bank::Entry e;
  e.kind = aoc::bank::kPositive;
  e.motif = motif;
  e.source_hash = "h";
  e.diff = diff;
  e.title = e.description = e.bottleneck = motif;
  return e;
}

TEST(BankMerge, AddsWhatTheCopyGainedOnceAndMapsItsIds) {
  aoc::testing::ScratchDir tmp("bank-merge");
  aoc::bank::Bank into(tmp.path() / "into.sqlite"), from(tmp.path() / "from.sqlite");
  into.insert(entry("double_buffer", "d0"));
  from.insert(entry("double_buffer", "d0"));  // the copy's base
  const int64_t base = aoc::bank::last_entry_id(from);
  const int64_t a = from.insert(entry("unroll", "d1"));
  const int64_t b = from.insert(entry("ub_bank_pad", "d2"));
  const int64_t twice = from.insert(entry("unroll", "d1"));  // the same measurement stored again
  const int64_t known = from.insert(entry("double_buffer", "d0"));

  const auto ids = aoc::bank::merge_new_entries(into, from, base);
  ASSERT_EQ(into.count(), 3u);
  const auto entries = into.entries();
  EXPECT_EQ(entries[1].motif, "unroll");
  EXPECT_EQ(entries[2].motif, "ub_bank_pad");
  EXPECT_EQ(ids.at(a), entries[1].id);
  EXPECT_EQ(ids.at(b), entries[2].id);
  EXPECT_EQ(ids.at(twice), entries[1].id);
  EXPECT_EQ(ids.at(known), entries[0].id);
  EXPECT_EQ(ids.count(base), 0u);

  const auto again = aoc::bank::merge_new_entries(into, from, base);
  EXPECT_EQ(into.count(), 3u);
  EXPECT_EQ(again, ids);
}

}  // namespace
