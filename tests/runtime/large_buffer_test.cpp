// GM argument buffers: alignment, the copied prefix and the filled padding, large and small.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "runtime/large_buffer.h"

using aoc::runtime::GmBuffer;

namespace {

void expect_layout(size_t n, bool with_init, unsigned char fill) {
  std::vector<unsigned char> init(n);
  std::iota(init.begin(), init.end(), static_cast<unsigned char>(1));
  GmBuffer b(with_init ? init.data() : nullptr, n, fill);
  ASSERT_NE(b.mem.get(), nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b.mem.get()) % 512, 0u);
  EXPECT_EQ(b.bytes, n);
  const size_t padded = (n + 511) / 512 * 512 + 512;
  size_t wrong = 0;
  for (size_t i = 0; i < padded; ++i) {
    const unsigned char want = with_init && i < n ? init[i] : fill;
    wrong += b.mem.get()[i] != want;
  }
  EXPECT_EQ(wrong, 0u) << n << " bytes";
}

}  // namespace

TEST(GmBuffer, CopiesTheInitialBytesAndFillsThePadding) {
  expect_layout(0, false, 0);
  expect_layout(1, true, 0xA5);
  expect_layout(512, true, 0);
  expect_layout(1000, false, 0xFF);
}

TEST(GmBuffer, LargeBuffersHaveTheSameLayout) {
  expect_layout((9u << 20) + 33, true, 0x5A);  // past the huge-page threshold
  expect_layout(9u << 20, false, 0xFF);
}

TEST(LargeBuffer, ReservedVectorsKeepStandardSemantics) {
  std::vector<double> v;
  aoc::runtime::reserve_large(v, 3u << 20);
  EXPECT_GE(v.capacity(), 3u << 20);
  EXPECT_TRUE(v.empty());
  v.resize(3u << 20, 0.0);
  EXPECT_EQ(std::count(v.begin(), v.end(), 0.0), static_cast<long>(3u << 20));
  aoc::runtime::advise_huge_pages(nullptr, 1u << 30);  // no memory: nothing to advise, no failure
}
