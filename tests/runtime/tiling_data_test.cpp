// Tiling data: host fills a BEGIN_TILING_DATA_DEF class, saves it to bytes, and the kernel
// macros read it back with the type found from the registration.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(InnerTiling)
  TILING_DATA_FIELD_DEF(uint16_t, a);
  TILING_DATA_FIELD_DEF(uint16_t, b);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(InnerTilingOp, InnerTiling)

BEGIN_TILING_DATA_DEF(DemoTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);
  TILING_DATA_FIELD_DEF(uint32_t, tileNum);
  TILING_DATA_FIELD_DEF(float, scale);
  TILING_DATA_FIELD_DEF_ARR(int64_t, 3, dims);
  TILING_DATA_FIELD_DEF_STRUCT(InnerTiling, inner);
  TILING_DATA_FIELD_DEF(int8_t, flag);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(DemoOp, DemoTilingData)

BEGIN_TILING_DATA_DEF(DemoKey2Tiling)
  TILING_DATA_FIELD_DEF(uint64_t, other);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(DemoOp_2, DemoKey2Tiling)
}  // namespace optiling

#include "kernel_operator.h"

namespace {

struct PlainTiling {
  uint32_t n;
  uint32_t m;
};

optiling::DemoTilingData make_host_tiling() {
  optiling::DemoTilingData t;
  t.set_totalLength(4096);
  t.set_tileNum(8);
  t.set_scale(0.5f);
  int64_t dims[3] = {2, 3, 5};
  t.set_dims(dims);
  t.inner.set_a(7);
  t.inner.set_b(9);
  t.set_flag(-3);
  return t;
}

std::vector<uint8_t> save(const optiling::DemoTilingData& t) {
  std::vector<uint8_t> bytes(256, 0xAB);
  t.SaveToBuffer(bytes.data(), bytes.size());
  bytes.resize(t.GetDataSize());
  return bytes;
}

// What a kernel body does with its `GM_ADDR tiling` argument.
optiling::DemoTilingData kernel_reads(GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  static_assert(std::is_same_v<decltype(tilingData), optiling::DemoTilingData>,
                "the op's primary registration is picked, not the nested or per-key one");
  return tilingData;
}

}  // namespace

TEST(TilingData, LayoutIsDeclarationOrder) {
  using T = optiling::DemoTilingData;
  static_assert(std::is_standard_layout_v<T>);
  EXPECT_EQ(offsetof(T, totalLength), 0u);
  EXPECT_EQ(offsetof(T, tileNum), 4u);
  EXPECT_EQ(offsetof(T, scale), 8u);
  EXPECT_EQ(offsetof(T, dims), 16u);
  EXPECT_EQ(offsetof(T, inner), 40u);
  EXPECT_EQ(offsetof(T, flag), 44u);
  EXPECT_EQ(T{}.GetDataSize(), sizeof(T));
}

TEST(TilingData, HostBytesRoundTripThroughGetTilingData) {
  auto bytes = save(make_host_tiling());
  uint32_t total;
  std::memcpy(&total, bytes.data(), 4);
  EXPECT_EQ(total, 4096u);
  auto k = kernel_reads(bytes.data());
  EXPECT_EQ(k.totalLength, 4096u);
  EXPECT_EQ(k.get_tileNum(), 8u);
  EXPECT_FLOAT_EQ(k.scale, 0.5f);
  EXPECT_EQ(k.dims[2], 5);
  EXPECT_EQ(k.inner.a, 7);
  EXPECT_EQ(k.inner.get_b(), 9);
  EXPECT_EQ(k.flag, -3);
}

TEST(TilingData, SaveToBufferRejectsSmallCapacity) {
  auto t = make_host_tiling();
  std::vector<uint8_t> small(8);
  EXPECT_THROW(t.SaveToBuffer(small.data(), small.size()), aoc::KernelError);
}

TEST(TilingData, WithStructMemberAndPointerForms) {
  auto bytes = save(make_host_tiling());
  GM_ADDR tiling = bytes.data();
  GET_TILING_DATA_WITH_STRUCT(optiling::DemoTilingData, whole, tiling);
  EXPECT_EQ(whole.tileNum, 8u);
  GET_TILING_DATA_MEMBER(optiling::DemoTilingData, inner, innerOnly, tiling);
  EXPECT_EQ(innerOnly.b, 9);
  GET_TILING_DATA_MEMBER(optiling::DemoTilingData, scale, scaleOnly, tiling);
  EXPECT_FLOAT_EQ(scaleOnly, 0.5f);
  GET_TILING_DATA_PTR_WITH_STRUCT(optiling::DemoTilingData, ptr, tiling);
  EXPECT_EQ(ptr->dims[1], 3);
}

TEST(TilingData, RegisterTilingDefaultOverridesRegistration) {
  PlainTiling host{11, 22};
  GM_ADDR tiling = reinterpret_cast<GM_ADDR>(&host);
  REGISTER_TILING_DEFAULT(PlainTiling);
  GET_TILING_DATA(t, tiling);
  static_assert(std::is_same_v<decltype(t), PlainTiling>);
  EXPECT_EQ(t.m, 22u);
}

TEST(TilingData, ReadBeyondRegisteredBufferIsAKernelError) {
  std::vector<uint8_t> shorter(8, 0);
  aoc::GmRegistry::instance().add(shorter.data(), shorter.size(), "tiling");
  try {
    GET_TILING_DATA(t, shorter.data());
    (void)t;
    aoc::GmRegistry::instance().remove(shorter.data());
    FAIL() << "expected a KernelError";
  } catch (const aoc::KernelError& e) {
    aoc::GmRegistry::instance().remove(shorter.data());
    EXPECT_EQ(e.api(), "GET_TILING_DATA");
    EXPECT_NE(std::string(e.what()).find("tiling_data_test.cpp"), std::string::npos);
  }
  auto read_null = [] {
    GET_TILING_DATA(t, nullptr);
    (void)t;
  };
  EXPECT_THROW(read_null(), aoc::KernelError);
}

TEST(TilingData, TilingKeyMacrosReadTheCoreKey) {
  auto& c = aoc::core();
  uint64_t saved = c.tiling_key;
  c.tiling_key = 2;
  int branch = 0;
  if (TILING_KEY_IS(1)) {
    branch = 1;
  } else if (TILING_KEY_IS(2)) {
    branch = 2;
  }
  EXPECT_EQ(branch, 2);
  EXPECT_TRUE(TILING_KEY_LIST(5, 2, 7));
  EXPECT_FALSE(TILING_KEY_LIST(5, 7));
  KERNEL_TASK_TYPE(3, KERNEL_TYPE_MIX_AIC_1_2);
  EXPECT_EQ(c.kernel_type, -1);
  KERNEL_TASK_TYPE(2, KERNEL_TYPE_MIX_AIC_1_2);
  EXPECT_EQ(c.kernel_type, KERNEL_TYPE_MIX_AIC_1_2);
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  EXPECT_EQ(c.kernel_type, KERNEL_TYPE_AIV_ONLY);
  c.tiling_key = saved;
  c.kernel_type = -1;
}
