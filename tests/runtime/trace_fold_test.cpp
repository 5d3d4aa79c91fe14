// Folding of scalar work into the last trace record, which the trace reaches through a cached
// pointer (aoc/trace.h): it must follow the records through clear, copy and move.
#include <gtest/gtest.h>

#include <source_location>
#include <utility>

#include "aoc/trace.h"

namespace {

using aoc::Range;
using aoc::Space;
using aoc::Trace;

const std::source_location kLoc = std::source_location::current();

Range ub(uint64_t lo, uint64_t hi) { return Range{Space::UB, lo, hi}; }

void read(Trace& t, uint64_t at) { t.scalar_access(aoc::kGetValueOp, aoc::DType::F16, ub(at, at + 2), false, kLoc); }

}  // namespace

TEST(TraceFold, ContiguousScalarReadsFoldIntoOneRecord) {
  Trace t;
  for (uint64_t i = 0; i < 10; ++i) read(t, 2 * i);
  ASSERT_EQ(t.records.size(), 1u);
  EXPECT_EQ(t.records[0].elems, 10u);
  EXPECT_EQ(t.records[0].reads[0].lo, 0u);
  EXPECT_EQ(t.records[0].reads[0].hi, 20u);
}

TEST(TraceFold, AnApiRecordEndsTheFold) {
  Trace t;
  read(t, 0);
  t.append(aoc::RecKind::Compute, aoc::Pipe::V, "Add", kLoc);
  read(t, 2);
  ASSERT_EQ(t.records.size(), 3u);
  EXPECT_EQ(t.records[2].elems, 1u);
}

TEST(TraceFold, ClearStartsAFreshRecord) {
  Trace t;
  read(t, 0);
  t.clear();
  read(t, 2);
  ASSERT_EQ(t.records.size(), 1u);
  EXPECT_EQ(t.records[0].elems, 1u);
  EXPECT_EQ(t.records[0].reads[0].lo, 2u);
}

TEST(TraceFold, ACopyFoldsIntoItsOwnRecords) {
  Trace a;
  read(a, 0);
  Trace b = a;
  read(b, 2);
  EXPECT_EQ(a.records[0].elems, 1u);
  ASSERT_EQ(b.records.size(), 1u);
  EXPECT_EQ(b.records[0].elems, 2u);

  Trace c;
  c = b;
  read(c, 4);
  EXPECT_EQ(b.records[0].elems, 2u);
  EXPECT_EQ(c.records[0].elems, 3u);
}

TEST(TraceFold, AMoveTakesTheLastRecordAlong) {
  Trace a;
  read(a, 0);
  Trace b = std::move(a);
  read(b, 2);
  ASSERT_EQ(b.records.size(), 1u);
  EXPECT_EQ(b.records[0].elems, 2u);
  read(a, 8);  // the moved-from trace starts over instead of writing into b's records
  EXPECT_EQ(b.records[0].elems, 2u);
  ASSERT_EQ(a.records.size(), 1u);
  EXPECT_EQ(a.records[0].elems, 1u);
}
