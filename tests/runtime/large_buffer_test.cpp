// GM argument buffers: alignment, the copied prefix and the filled padding, large and small.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <stdexcept>
#include <string>
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

namespace {

// A file of `lead` bytes of 0x11, then `n` bytes counting from 1.
std::filesystem::path file_with(size_t lead, size_t n, std::vector<unsigned char>& expected) {
  expected.resize(n);
  std::iota(expected.begin(), expected.end(), static_cast<unsigned char>(1));
  std::string t = (std::filesystem::temp_directory_path() / "aoc-gmfile-XXXXXX").string();
  const int fd = mkstemp(t.data());
  if (fd < 0) throw std::runtime_error("mkstemp");
  ::close(fd);
  std::ofstream out(t, std::ios::binary);
  const std::vector<unsigned char> head(lead, 0x11);
  out.write(reinterpret_cast<const char*>(head.data()), static_cast<std::streamsize>(head.size()));
  out.write(reinterpret_cast<const char*>(expected.data()), static_cast<std::streamsize>(expected.size()));
  return t;
}

void expect_file_layout(size_t lead, size_t n) {
  std::vector<unsigned char> want;
  const std::filesystem::path path = file_with(lead, n, want);
  const int fd = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  {
    GmBuffer b(fd, lead, n);
    ASSERT_NE(b.mem.get(), nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(b.mem.get()) % 512, 0u);
    EXPECT_EQ(b.bytes, n);
    const size_t padded = (n + 511) / 512 * 512 + 512;
    size_t wrong = 0;
    for (size_t i = 0; i < padded; ++i) wrong += b.mem.get()[i] != (i < n ? want[i] : 0);
    EXPECT_EQ(wrong, 0u) << n << " bytes at " << lead;
    // The kernel may write its inputs: the buffer changes, the file does not.
    std::fill(b.mem.get(), b.mem.get() + padded, 0xEE);
  }
  ::close(fd);
  std::vector<unsigned char> again;
  std::ifstream in(path, std::ios::binary);
  again.assign(std::istreambuf_iterator<char>(in), {});
  ASSERT_EQ(again.size(), lead + n);
  EXPECT_TRUE(std::equal(want.begin(), want.end(), again.begin() + static_cast<std::ptrdiff_t>(lead)))
      << "a write into the GM buffer reached the file";
  std::filesystem::remove(path);
}

}  // namespace

TEST(GmBuffer, FromAFileHasTheSameLayoutAndLeavesTheFileAlone) {
  expect_file_layout(0, 1);
  expect_file_layout(0, 4096);
  expect_file_layout(4096, (3u << 20) + 77);  // whole pages mapped, the tail read
  expect_file_layout(100, 10000);             // not at a page boundary: all read
}

TEST(GmBuffer, AFileShorterThanTheBufferIsRefused) {
  std::vector<unsigned char> want;
  const std::filesystem::path path = file_with(4096, 1000, want);
  const int fd = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  EXPECT_THROW(GmBuffer(fd, 4096, 1001), std::runtime_error);
  EXPECT_THROW(GmBuffer(fd, 8192, 1), std::runtime_error);
  ::close(fd);
  std::filesystem::remove(path);
}
