// Device behaviours public kernels rely on: the runtime's padding of GM allocations, InitBuffer
// past the end of UB for buffers a path never touches, and the smaller APIs of the device
// headers (TQueSync, AscendCUtils::SetMask, SetDeqScale, untyped DeQue, IMPL_OP_OPTILING with
// TilingParse / GetCompileInfo, likely / unlikely).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernel_operator.h"
#include "kernel_log.h"
#include "aoc/launch.h"
#include "register/op_def_registry.h"
#include "sim/hazards.h"
#include "tiling/platform/platform_ascendc.h"

namespace {

using namespace AscendC;

// Reads `n` floats from the input and writes them to the output with whole-block copies.
uint32_t g_copy_floats = 0;
extern "C" __global__ __aicore__ void block_copy(GM_ADDR x, GM_ADDR y) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 4096);
  GlobalTensor<float> xg, yg;
  xg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x));
  yg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y));
  LocalTensor<float> t = buf.Get<float>();
  DataCopy(t, xg, g_copy_floats);
  PipeBarrier<PIPE_ALL>();
  DataCopy(yg, t, g_copy_floats);
}

aoc::runtime::LaunchResult copy_floats(uint32_t n, std::vector<float>& x, std::vector<float>& y, size_t real) {
  g_copy_floats = n;
  aoc::runtime::LaunchConfig cfg;
  return aoc::runtime::launch_kernel(cfg, reinterpret_cast<void*>(&block_copy),
                                {{x.data(), real * 4, "x"}, {y.data(), real * 4, "y"}});
}

}  // namespace

TEST(GmPadding, CopiesIntoThePaddingAreWarningsAndTheRealElementsAreRight) {
  // 100 floats = 400 B; the runtime pads to 416 + 32 = 448 B (112 floats).
  std::vector<float> x(128, 1.5f), y(128, 0.0f);
  for (int i = 0; i < 100; ++i) x[i] = static_cast<float>(i);
  auto r = copy_floats(104, x, y, 100);  // 13 whole blocks: 16 B into the padding
  ASSERT_TRUE(r.ok) << r.error;
  for (int i = 0; i < 100; ++i) EXPECT_EQ(y[i], static_cast<float>(i));
  ASSERT_EQ(r.warnings.size(), 2u);  // the read of x and the write of y
  for (const auto& [msg, n] : r.warnings) {
    EXPECT_NE(msg.find("padding of GM buffer"), std::string::npos) << msg;
    EXPECT_NE(msg.find("padded to 448"), std::string::npos) << msg;
  }
}

TEST(GmPadding, BeyondThePaddingIsStillAnError) {
  std::vector<float> x(256, 0.0f), y(256, 0.0f);
  auto r = copy_floats(120, x, y, 100);  // 480 B > 448 B
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("out of bounds"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("448 with the runtime's padding"), std::string::npos) << r.error;
}

TEST(GmPadding, AlignedTensorsTouchNoPadding) {
  std::vector<float> x(160, 2.0f), y(160, 0.0f);
  auto r = copy_floats(128, x, y, 128);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.warnings.empty());
  EXPECT_EQ(aoc::GmRegistry::padded_size(1), 64u);
  EXPECT_EQ(aoc::GmRegistry::padded_size(512), 544u);
}

namespace {

bool g_use_big = false;
extern "C" __global__ __aicore__ void big_unused_buffer(GM_ADDR) {
  TPipe pipe;
  TQue<TPosition::VECIN, 1> small;
  TBuf<TPosition::VECCALC> big;
  pipe.InitBuffer(small, 1, 1024);
  pipe.InitBuffer(big, 1024 * 1024);  // far more than UB: the device does not check here
  LocalTensor<float> s = small.AllocTensor<float>();
  Duplicate(s, 1.0f, 256);
  small.FreeTensor(s);
  if (g_use_big) {
    LocalTensor<float> b = big.Get<float>();
    Duplicate(b, 0.0f, 256 * 1024);
  }
}

aoc::runtime::LaunchResult run_big(bool use) {
  g_use_big = use;
  aoc::runtime::LaunchConfig cfg;
  return aoc::runtime::launch_kernel(cfg, reinterpret_cast<void*>(&big_unused_buffer), {{nullptr, 0, "workspace"}});
}

}  // namespace

namespace {

// Kernels of CANN's repositories pick their A2 code with __CCE_AICORE__ and check their own
// arguments with kernel_log.h's ASSERT_MSG.
uint32_t g_assert_rows = 0;
extern "C" __global__ __aicore__ void a2_path_with_assert(GM_ADDR) {
#if __CCE_AICORE__ == 220
  ASSERT_MSG(g_assert_rows != 0 && get_block_idx() == 0 && get_block_num() == 1, "rows must not be 0");
  KERNEL_LOG(KERNEL_ERROR, "rows %u", g_assert_rows);
#endif
}

aoc::runtime::LaunchResult run_assert(uint32_t rows) {
  g_assert_rows = rows;
  aoc::runtime::LaunchConfig cfg;
  return aoc::runtime::launch_kernel(cfg, reinterpret_cast<void*>(&a2_path_with_assert), {{nullptr, 0, "workspace"}});
}

}  // namespace

TEST(KernelLog, AFailedAssertOnTheA2PathStopsTheKernelWithItsCondition) {
  static_assert(__CCE_AICORE__ == 220 && __NPU_ARCH__ == 2201);
  static_assert(ge::FORMAT_NCDHW == 30 && ge::FORMAT_NDHWC == 27);
  EXPECT_TRUE(run_assert(4).ok);
  const auto r = run_assert(0);
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("assertion failed: g_assert_rows != 0 && get_block_idx() == 0"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("device_compat_test.cpp"), std::string::npos) << r.error;
}

TEST(InitBufferOverflow, ABufferPastTheEndOfUbIsFineWhileUntouched) {
  auto r = run_big(false);
  EXPECT_TRUE(r.ok) << r.error;
}

TEST(InitBufferOverflow, TouchingItFailsNamingTheInitBuffer) {
  auto r = run_big(true);
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("past the end of local memory"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("UB overflow"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("device_compat_test.cpp"), std::string::npos) << r.error;
}

class DeviceApis : public ::testing::Test {
 protected:
  void SetUp() override { aoc::core().init(aoc::CoreLimits{}); }
};

TEST_F(DeviceApis, TQueSyncSetsAndWaitsTheEventOfItsPipes) {
  TQueSync<PIPE_V, PIPE_S> sync;
  sync.SetFlag(2);
  EXPECT_EQ(aoc::core().flags.pending(aoc::Pipe::V, aoc::Pipe::S), 1u << 2);
  sync.WaitFlag(2);
  EXPECT_EQ(aoc::core().flags.pending(aoc::Pipe::V, aoc::Pipe::S), 0u);
  EXPECT_THROW(sync.WaitFlag(2), aoc::KernelError);  // nothing set: would hang on the device
  static_assert(aoc::event_of(aoc::Pipe::MTE2, aoc::Pipe::V) == HardEvent::MTE2_V);
}

TEST_F(DeviceApis, AscendCUtilsSetMaskFollowsTheDeviceShortcuts) {
  AscendCUtils::SetMask<float>(10);
  EXPECT_EQ(aoc::core().mask_low, (1ull << 10) - 1);
  EXPECT_EQ(aoc::core().mask_high, 0u);
  AscendCUtils::SetMask<half>(100);
  EXPECT_EQ(aoc::core().mask_low, ~0ull);
  EXPECT_EQ(aoc::core().mask_high, (1ull << 36) - 1);
  AscendCUtils::SetMask<half>(64);
  EXPECT_EQ(aoc::core().mask_high, 0u);
  EXPECT_EQ(aoc::core().mask_low, ~0ull);
  AscendCUtils::SetMask<float>(8);  // one block of floats: every lane, as on the device
  EXPECT_EQ(aoc::core().mask_high, ~0ull);
  AscendCUtils::SetMask<float, false>(3);  // isSetMask = false leaves the register alone
  EXPECT_EQ(aoc::core().mask_high, ~0ull);
}

// vcadd, the machine form of WholeReduceSum, on GetPhyAddr() addresses as norm kernels call it:
// one sum per repeat over the lanes the mask register enables.
TEST_F(DeviceApis, VcaddSumsEachRepeatOverTheMaskRegisterLanes) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> a, b;
  pipe.InitBuffer(a, 2 * 64 * sizeof(float));
  pipe.InitBuffer(b, 64);
  LocalTensor<float> src = a.Get<float>();
  LocalTensor<float> dst = b.Get<float>();
  for (int i = 0; i < 128; ++i) src.SetValue(i, float(i));
  AscendCUtils::SetMask<float>(64);
  vcadd((__ubuf__ float*)dst.GetPhyAddr(), (__ubuf__ float*)src.GetPhyAddr(), 2, 1, 1, 8);
  EXPECT_EQ(dst.GetValue(0), 63.0f * 64 / 2);
  EXPECT_EQ(dst.GetValue(1), (64.0f + 127.0f) * 64 / 2);
  AscendCUtils::SetMask<float>(10);  // lanes 0..9 of each repeat
  vcadd((__ubuf__ float*)dst.GetPhyAddr(), (__ubuf__ float*)src.GetPhyAddr(), 2, 1, 1, 8, false);
  EXPECT_EQ(dst.GetValue(0), 45.0f);
  EXPECT_EQ(dst.GetValue(1), 64.0f * 10 + 45.0f);
  // An address that is not in UB is an error naming the intrinsic's use, not a stray write.
  EXPECT_THROW(vcadd((__ubuf__ float*)(uintptr_t(1) << 30), (__ubuf__ float*)src.GetPhyAddr(), 1, 1, 1, 8),
               aoc::KernelError);
}

TEST_F(DeviceApis, IntegerHelpersOfTheDeviceHeaders) {
  static_assert(AlignUp(10u, 8u) == 16u && DivCeil(10u, 8u) == 2u && ConstCeil(17u, 8u) == 3u);
  EXPECT_EQ(Ceil(33u, 32u), 2u);
}

TEST_F(DeviceApis, SetDeqScaleScalesInt32ToHalfCasts) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> a, b;
  pipe.InitBuffer(a, 256);
  pipe.InitBuffer(b, 256);
  LocalTensor<int32_t> src = a.Get<int32_t>();
  LocalTensor<half> dst = b.Get<half>();
  for (int i = 0; i < 64; ++i) src.SetValue(i, i - 32);
  SetDeqScale(static_cast<half>(0.5f));
  Cast(dst, src, RoundMode::CAST_NONE, 64);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(static_cast<float>(dst.GetValue(i)), (i - 32) * 0.5f);
  SetDeqScale(2.0f, 0x3ff, true);
  EXPECT_EQ(aoc::core().deq_offset, 0x1ff);  // 9 bits
  EXPECT_TRUE(aoc::core().deq_signed);
}

TEST_F(DeviceApis, UntypedDeQueTakesTheOldestTensor) {
  TPipe pipe;
  TQue<TPosition::VECIN, 2> q;
  pipe.InitBuffer(q, 2, 64);
  LocalTensor<float> t0 = q.AllocTensor<float>();
  q.EnQue(t0);
  EXPECT_EQ(q.GetTensorCountInQue(), 1);
  TBufHandle h = q.DeQue();
  EXPECT_EQ(reinterpret_cast<std::byte*>(h), reinterpret_cast<std::byte*>(t0.aoc_ptr()));
  EXPECT_EQ(q.GetTensorCountInQue(), 0);
  q.FreeTensor(t0);
  EXPECT_TRUE(likely(q.HasIdleBuffer()));
  EXPECT_FALSE(unlikely(!q.HasIdleBuffer()));
}

// --- IMPL_OP_OPTILING with TilingParse, written as host files do.
namespace optiling {
struct ParsedInfo {
  uint32_t cores = 0;
  uint64_t ub = 0;
};
static ge::graphStatus ParseForTest(gert::TilingParseContext* ctx) {
  auto* info = ctx->GetCompiledInfo<ParsedInfo>();
  auto platform = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
  info->cores = platform.GetCoreNumAiv();
  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, info->ub);
  return ge::GRAPH_SUCCESS;
}
static ge::graphStatus TilingForTest(gert::TilingContext* ctx) {
  const auto* info = ctx->GetCompileInfo<ParsedInfo>();
  if (info == nullptr) return ge::GRAPH_FAILED;
  ctx->SetBlockDim(info->cores);
  ctx->SetTilingKey(info->ub);
  return ge::GRAPH_SUCCESS;
}
static ge::graphStatus InferForTest(gert::InferShapeContext*) { return ge::GRAPH_SUCCESS; }
IMPL_OP_OPTILING(ImplRegisteredOp).Tiling(TilingForTest).TilingParse<ParsedInfo>(ParseForTest);
IMPL_OP_INFERSHAPE(ImplRegisteredOp).InferShape(InferForTest);
}  // namespace optiling

TEST(ImplRegistry, TilingParseFillsTheCompileInfoTheTilingReads) {
  const auto f = aoc::host::OpImplRegistry::instance().find("ImplRegisteredOp");
  ASSERT_NE(f.tiling, nullptr);
  EXPECT_EQ(f.infer_shape, &optiling::InferForTest);  // the second registration merged in
  aoc::host::PlatformConfig pc = aoc::host::current_platform();
  pc.aiv_cores = 7;
  pc.ub_bytes = 100 * 1024;
  gert::TilingContext ctx(aoc::host::NodeDesc("ImplRegisteredOp"), pc);
  ASSERT_EQ(f.tiling(&ctx), ge::GRAPH_SUCCESS);
  EXPECT_EQ(ctx.GetBlockDim(), 7u);
  EXPECT_EQ(ctx.GetTilingKey(), 100u * 1024u);
  gert::TilingContext other(aoc::host::NodeDesc("NoSuchOp"), pc);
  EXPECT_EQ(other.GetCompileInfo<optiling::ParsedInfo>(), nullptr);
}

namespace {

// Duplicate on V, then GetValue on S with no sync: the device toolchain inserts the wait.
float g_read_back = 0.0f;
extern "C" __global__ __aicore__ void read_after_vector(GM_ADDR) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 1024);
  LocalTensor<float> t = buf.Get<float>();
  Duplicate(t, 3.5f, 256);
  g_read_back = t.GetValue(7);
}

}  // namespace

TEST(ToolchainSync, ScalarReadAfterVectorWriteGetsTheWaitAndAWarning) {
  aoc::runtime::LaunchConfig cfg;
  auto r = aoc::runtime::launch_kernel(cfg, reinterpret_cast<void*>(&read_after_vector), {{nullptr, 0, "workspace"}});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(g_read_back, 3.5f);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings.begin()->first.find("Duplicate"), std::string::npos) << r.warnings.begin()->first;
  EXPECT_NE(r.warnings.begin()->first.find("V_S"), std::string::npos) << r.warnings.begin()->first;
  const auto& recs = r.cores.at(0).trace.records;
  size_t set = recs.size(), wait = recs.size(), read = recs.size();
  for (size_t i = 0; i < recs.size(); ++i) {
    if (recs[i].kind == aoc::RecKind::SetFlag && recs[i].implicit && recs[i].pipe == aoc::Pipe::V) set = i;
    if (recs[i].kind == aoc::RecKind::WaitFlag && recs[i].implicit && recs[i].peer == aoc::Pipe::S) wait = i;
    if (recs[i].kind == aoc::RecKind::Scalar && recs[i].nreads > 0) read = i;
  }
  ASSERT_LT(set, recs.size());
  EXPECT_LT(set, wait);
  EXPECT_LT(wait, read);
  EXPECT_TRUE(aoc::sim::check_hazards(r.cores[0].trace).empty());
}
