// Element codecs (rounding and saturation per type) and the byte stream of seeded inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "package/case_inputs.h"
#include "package/dtype.h"

using namespace aoc::package;

namespace {

uint16_t stored16(ElemType t, double v) {
  uint16_t bits = 0;
  store_as(t, v, &bits);
  return bits;
}

uint64_t fnv1a(const TypedBuffer& b) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : b.bytes) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace

TEST(Codec, HalfRoundsToNearestEvenFromDouble) {
  EXPECT_EQ(stored16(ElemType::F16, 1.0 / 3.0), 0x3555);
  EXPECT_EQ(stored16(ElemType::F16, 1.0 + std::ldexp(1.0, -11)), 0x3c00);      // tie: to even
  EXPECT_EQ(stored16(ElemType::F16, 1.0 + 3 * std::ldexp(1.0, -11)), 0x3c02);  // tie: to even (up)
  // Just above the tie: a double rounding through float would land on the tie and go down.
  EXPECT_EQ(stored16(ElemType::F16, 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)), 0x3c01);
  EXPECT_EQ(stored16(ElemType::F16, -1.0 - std::ldexp(1.0, -11) - std::ldexp(1.0, -40)), 0xbc01);
  EXPECT_EQ(stored16(ElemType::F16, 65519.0), 0x7bff);
  EXPECT_EQ(stored16(ElemType::F16, 65520.0), 0x7c00);  // rounds to inf
  EXPECT_EQ(stored16(ElemType::F16, std::ldexp(1.0, -24)), 0x0001);
  EXPECT_EQ(stored16(ElemType::F16, std::ldexp(1.0, -26)), 0x0000);
  EXPECT_EQ(stored16(ElemType::F16, -INFINITY), 0xfc00);
  EXPECT_TRUE(std::isnan(load_as(ElemType::F16, "\x00\x7e")));
}

TEST(Codec, BfloatAndFloat) {
  EXPECT_EQ(stored16(ElemType::BF16, 1.0 + std::ldexp(1.0, -8)), 0x3f80);  // tie: to even
  EXPECT_EQ(stored16(ElemType::BF16, 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -30)), 0x3f81);
  EXPECT_EQ(round_to(ElemType::F32, 0.1), static_cast<double>(0.1f));
  EXPECT_EQ(round_to(ElemType::BF16, 3.0), 3.0);
}

TEST(Codec, IntegersSaturateAndRoundHalfToEven) {
  EXPECT_EQ(round_to(ElemType::I8, 300.0), 127.0);
  EXPECT_EQ(round_to(ElemType::I8, -300.0), -128.0);
  EXPECT_EQ(round_to(ElemType::U8, -5.0), 0.0);
  EXPECT_EQ(round_to(ElemType::I16, 2.5), 2.0);
  EXPECT_EQ(round_to(ElemType::I32, -3.5), -4.0);
  EXPECT_EQ(round_to(ElemType::I32, std::nan("")), 0.0);
  EXPECT_EQ(round_to(ElemType::I64, 1e300), static_cast<double>(std::numeric_limits<int64_t>::max()));
  EXPECT_EQ(round_to(ElemType::Bool, 0.25), 1.0);
  EXPECT_EQ(round_to(ElemType::Bool, 0.0), 0.0);
}

TEST(Codec, EveryTypeDispatchesToACodecOfItsSize) {
  for (ElemType t : {ElemType::F16, ElemType::BF16, ElemType::F32, ElemType::I8, ElemType::U8, ElemType::I16,
                     ElemType::I32, ElemType::I64, ElemType::Bool})
    EXPECT_EQ(visit_elem_type(t, [](auto c) { return decltype(c)::bytes; }), info(t).bytes) << info(t).name;
}

// The inputs of a case are a pure function of (seed, case, input): stored results and reported
// failures name a seed, and must mean the same numbers in later versions. These digests were
// taken from the generator before its per-type loops were introduced.
TEST(CaseInputs, ByteStreamOfASeedIsStable) {
  ValueRange u;
  u.low = -3.0;
  u.high = 300.0;
  u.special = {std::nan(""), INFINITY, -INFINITY, 1e-9};
  ValueRange c;
  c.dist = "constant";
  c.value = 0.3;
  struct Expect { ElemType t; uint64_t uniform, constant; };
  const Expect expect[] = {
      {ElemType::F16, 0x90651f96fe542be0ull, 0x52be6eb330903e7aull},
      {ElemType::BF16, 0x6647bbf1230f73ffull, 0xc09e259dcd82da1full},
      {ElemType::F32, 0x2f33ac5d6e308b6cull, 0xe5dcc24259974b71ull},
      {ElemType::I8, 0x458a9d7f43222438ull, 0xe233e02899ca31c9ull},
      {ElemType::U8, 0xc8ee9a4667be8f4full, 0xe233e02899ca31c9ull},
      {ElemType::I16, 0x26bd4c198d01cf38ull, 0xb2af32aacb2c3b1bull},
      {ElemType::I32, 0x498320e67d66da82ull, 0x161eef098334cb73ull},
      {ElemType::I64, 0xe3c358adf8f9a726ull, 0x4080ad07535cbe63ull},
  };
  for (const Expect& e : expect) {
    TypedBuffer a(e.t, 4099), k(e.t, 77);
    fill_values(a, u, 42);
    fill_values(k, c, 7);
    EXPECT_EQ(fnv1a(a), e.uniform) << info(e.t).name;
    EXPECT_EQ(fnv1a(k), e.constant) << info(e.t).name;
  }
}

TEST(CaseInputs, LargeBuffersConvertToTheSameDoubles) {
  // Big enough for the huge-page path of the buffers (several MiB).
  TypedBuffer b(ElemType::F16, 5u << 20);
  ValueRange u;
  fill_values(b, u, 9);
  const std::vector<double> d = b.to_double();
  ASSERT_EQ(d.size(), b.count);
  for (size_t i = 0; i < b.count; i += 4099) EXPECT_EQ(d[i], b.get(i));
  EXPECT_EQ(d.back(), b.get(b.count - 1));
}
