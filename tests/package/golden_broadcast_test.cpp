// golden_api::Broadcast, the NumPy broadcasting goldens read their inputs with: offsets of
// repeated dimensions (size 1 and missing ones), a same-shape input read element for element,
// and shapes that do not broadcast.
#include <gtest/gtest.h>

#include <vector>

#include "package/aoc_golden.h"

namespace {

AocGoldenTensor tensor(const char* name, const std::vector<int64_t>& dims, std::vector<double>& data) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  data.assign(static_cast<size_t>(n), 0.0);
  for (int64_t i = 0; i < n; ++i) data[static_cast<size_t>(i)] = static_cast<double>(i);
  return AocGoldenTensor{name, static_cast<int32_t>(dims.size()), dims.data(), n, data.data()};
}

TEST(GoldenBroadcast, OffsetsFollowNumPysRules) {
  const std::vector<int64_t> out_dims{2, 3, 4}, row_dims{4}, col_dims{3, 1}, same_dims{2, 3, 4};
  std::vector<double> o, r, c, s;
  const AocGoldenTensor out = tensor("y", out_dims, o), row = tensor("a", row_dims, r), col = tensor("b", col_dims, c),
                        same = tensor("c", same_dims, s);
  golden_api::Broadcast at(out);
  ASSERT_TRUE(at.fits(row) && at.fits(col) && at.fits(same));
  for (int64_t i = 0; i < out.size; ++i, at.next()) {
    const int64_t k = i % 4, j = (i / 4) % 3;
    EXPECT_EQ(at.offset(row), k) << i;   // [4]: the last dimension
    EXPECT_EQ(at.offset(col), j) << i;   // [3, 1]: the middle dimension, repeated along the last
    EXPECT_EQ(at.offset(same), i) << i;  // same shape: element for element
  }
}

TEST(GoldenBroadcast, ShapesThatDoNotBroadcastAreRefused) {
  const std::vector<int64_t> out_dims{2, 3}, bad_dims{2}, more_dims{4, 2, 3};
  std::vector<double> o, b, m;
  const AocGoldenTensor out = tensor("y", out_dims, o), bad = tensor("a", bad_dims, b), more = tensor("b", more_dims, m);
  const golden_api::Broadcast at(out);
  EXPECT_FALSE(at.fits(bad));   // 2 against the last dimension 3
  EXPECT_FALSE(at.fits(more));  // more elements than the output
}

}  // namespace
