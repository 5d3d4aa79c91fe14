// Shared helpers of the memory tests: a fresh core per test, GM buffers registered
// with the launcher registry, and an assertion that an API call fails with a
// KernelError naming the API and the calling test source line.
#pragma once
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernel_operator.h"

namespace memtest {

class CoreTest : public ::testing::Test {
 protected:
  void SetUp() override { aoc::core().init(aoc::CoreLimits{}); }
};

template <typename T>
class GmBuffer {
 public:
  // The runtime's padding of the allocation exists too (reserved, outside data.size()), so an
  // access the registry tolerates there stays inside this buffer's memory.
  GmBuffer(size_t n, const char* name) {
    data.reserve(aoc::GmRegistry::padded_size(n * sizeof(T)) / sizeof(T) + 1);
    data.resize(n);
    aoc::GmRegistry::instance().add(data.data(), n * sizeof(T), name);
  }
  ~GmBuffer() { aoc::GmRegistry::instance().remove(data.data()); }
  GmBuffer(const GmBuffer&) = delete;
  GmBuffer& operator=(const GmBuffer&) = delete;

  AscendC::GlobalTensor<T> tensor() {
    AscendC::GlobalTensor<T> t;
    t.SetGlobalBuffer(data.data(), data.size());
    return t;
  }
  GM_ADDR addr() { return reinterpret_cast<GM_ADDR>(data.data()); }

  std::vector<T> data;
};

inline std::vector<aoc::TraceRecord> records_of(aoc::RecKind kind) {
  std::vector<aoc::TraceRecord> out;
  for (const aoc::TraceRecord& r : aoc::core().trace.records)
    if (r.kind == kind) out.push_back(r);
  return out;
}

}  // namespace memtest

// The statement must throw aoc::KernelError for `api`, located in this test file,
// with `fragment` in its message.
#define EXPECT_KERNEL_ERROR(stmt, api_name, fragment)                                          \
  do {                                                                                         \
    try {                                                                                      \
      stmt;                                                                                    \
      ADD_FAILURE() << "expected a KernelError from " << api_name;                             \
    } catch (const aoc::KernelError& e) {                                                      \
      EXPECT_EQ(e.api(), std::string(api_name)) << e.what();                                   \
      EXPECT_EQ(e.file(), std::string(__FILE__)) << e.what();                                  \
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();          \
    }                                                                                          \
  } while (0)
