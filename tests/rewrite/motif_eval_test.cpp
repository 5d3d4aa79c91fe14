// Motifs on suite packages, through `ascendopt rewrite` and the real evaluator: the
// transformed kernel compiles, passes a public case (the race checker included) and, where
// the motif allows both directions, the inverse transformation gives back the source.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cli_support.h"
#include "base/file_text.h"
#include "scratch_dir.h"

namespace fs = std::filesystem;
using aoc::base::read_text;
using aoc::testing::run_ascendopt;

namespace {

const std::string kRoot = AOC_SOURCE_DIR;

// A folder that does not exist yet (the rewriter makes its output folder).
fs::path fresh_dir(const std::string& name) {
  const fs::path d = aoc::testing::process_scratch_dir() / name;
  fs::remove_all(d);
  return d;
}

// Evaluates one public case of a candidate folder; the verdict must be ok.
void expect_correct(const fs::path& candidate, const std::string& test_case) {
  auto e = run_ascendopt("eval " + candidate.string() + " --case " + test_case + " --no-store --json -j 1", false);
  EXPECT_EQ(e.status, 0) << e.out;
  EXPECT_NE(e.out.find("\"verdict\": \"ok\""), std::string::npos) << e.out;
}

// Barriers between the add expert's stages order nothing its queues do not: the kernel with
// them is still correct (no race), and removing them again gives the expert back.
TEST(MotifEval, RedundantSyncRoundTripOnAddExpert) {
  ::setenv("ASCENDOPT_HOME", AOC_SOURCE_DIR, 0);
  const fs::path with = fresh_dir("add-barriers");
  auto r = run_ascendopt("rewrite " + kRoot + "/ops/elementwise/add/expert --remove redundant_sync --out " + with.string());
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("+            AscendC::PipeBarrier<PIPE_ALL>();"), std::string::npos) << r.out;
  expect_correct(with, "prime_1021_fp16");

  const fs::path without = fresh_dir("add-no-barriers");
  auto back = run_ascendopt("rewrite " + with.string() + " --apply redundant_sync --out " + without.string());
  ASSERT_EQ(back.status, 0) << back.out;
  EXPECT_EQ(read_text(without / "op_kernel" / "add.cpp"),
            read_text(kRoot + "/ops/elementwise/add/expert/op_kernel/add.cpp"));
  fs::remove_all(with.parent_path());
}

// tril's strided row copies (GM -> UB and back, rows of an odd length) as one copy per row.
TEST(MotifEval, StridedCopyRemovedOnTril) {
  ::setenv("ASCENDOPT_HOME", AOC_SOURCE_DIR, 0);
  const fs::path out = fresh_dir("tril-per-row");
  auto r = run_ascendopt("rewrite " + kRoot + "/ops/conversion/tril --remove strided_copy --out " + out.string());
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("aocRow < copyParams.blockCount"), std::string::npos) << r.out;
  expect_correct(out, "prime_1021_fp16");
  fs::remove_all(out.parent_path());
}

// abs takes its queues' buffer count from the tiling, which reads it as the buffer_num knob
// defaulting to BUFFER_NUM: one buffer fewer changes the constant of both sides (the queue
// depth in the kernel, the knob's default in the host), and the kernel stays correct.
TEST(MotifEval, DoubleBufferFollowsTheBufferNumKnobOfAbs) {
  ::setenv("ASCENDOPT_HOME", AOC_SOURCE_DIR, 0);
  const fs::path out = fresh_dir("abs-single-buffer");
  auto r = run_ascendopt("rewrite " + kRoot + "/ops/elementwise/abs --remove double_buffer --out " + out.string());
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(read_text(out / "op_kernel" / "abs.cpp").find("constexpr int32_t BUFFER_NUM = 1;"), std::string::npos);
  EXPECT_NE(read_text(out / "op_host" / "abs.cpp").find("constexpr uint32_t BUFFER_NUM = 1;"), std::string::npos);
  EXPECT_NE(read_text(out / "op_host" / "abs.cpp").find("tuning::Knob(\"buffer_num\", BUFFER_NUM"), std::string::npos);
  expect_correct(out, "prime_1021_fp16");
  fs::remove_all(out.parent_path());
}

// relu casts float16 up to float around one Relu: computed natively it is the same function
// (one rounding either way), the kernel stays correct, and removing the motif again gives
// the package's source back.
TEST(MotifEval, NativeHalfRoundTripOnRelu) {
  ::setenv("ASCENDOPT_HOME", AOC_SOURCE_DIR, 0);
  const fs::path native = fresh_dir("relu-native");
  auto r = run_ascendopt("rewrite " + kRoot + "/ops/activation/relu --apply native_half --out " + native.string());
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("using ComputeT = std::conditional_t<std::is_same_v<T, bfloat16_t>, float, T>;"), std::string::npos)
      << r.out;
  expect_correct(native, "prime_1021_fp16");

  const fs::path back = fresh_dir("relu-upcast");
  auto again = run_ascendopt("rewrite " + native.string() + " --remove native_half --out " + back.string());
  ASSERT_EQ(again.status, 0) << again.out;
  EXPECT_EQ(read_text(back / "op_kernel" / "relu.cpp"), read_text(kRoot + "/ops/activation/relu/op_kernel/relu.cpp"));
  fs::remove_all(native.parent_path());
}

// exp's compute flag and the host's float-copy budget change together.
TEST(MotifEval, NativeHalfFlagOnExpChangesKernelAndHost) {
  ::setenv("ASCENDOPT_HOME", AOC_SOURCE_DIR, 0);
  const fs::path out = fresh_dir("exp-native");
  auto r = run_ascendopt("rewrite " + kRoot + "/ops/elementwise/exp --apply native_half --out " + out.string());
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(read_text(out / "op_kernel" / "exp.cpp").find("COMPUTE_IN_FLOAT = std::is_same_v<T, bfloat16_t>;"),
            std::string::npos);
  EXPECT_NE(read_text(out / "op_host" / "exp.cpp").find("bool computeInFloat = dtype == ge::DT_BF16;"),
            std::string::npos);
  expect_correct(out, "prime_1021_fp16");
  fs::remove_all(out.parent_path());
}

// adam and sgd_momentum computed natively in float16 fail the precision gate in their running
// averages (m and the momentum buffer: a rounded product plus a term of the other sign), so
// native_half refuses them and names the step; hardswish, whose steps stay within one
// rounding, still takes it.
TEST(MotifEval, NativeHalfRefusesUpdatesThatCancel) {
  ::setenv("ASCENDOPT_HOME", AOC_SOURCE_DIR, 0);
  for (const std::string op : {"optimizer/adam", "optimizer/sgd_momentum"}) {
    const fs::path out = fresh_dir("native-" + op.substr(op.find('/') + 1));
    auto r = run_ascendopt("rewrite " + kRoot + "/ops/" + op + " --apply native_half --out " + out.string(), false);
    EXPECT_NE(r.status, 0) << op << ": " << r.out;
    EXPECT_NE(r.out.find("Axpy at line"), std::string::npos) << op << ": " << r.out;
    EXPECT_FALSE(fs::exists(out)) << op;
  }
  auto ok = run_ascendopt("motifs " + kRoot + "/ops/activation/hardswish");
  EXPECT_NE(ok.out.find("native_half       applicable"), std::string::npos) << ok.out;
}

// relu's tile loop with two tiles per iteration: correct with one tile per core (the tail
// alone) and with many (17 per core on the 1e7-element case, an odd count: pairs plus the
// tail), and removing the motif gives the source back.
TEST(MotifEval, UnrollRoundTripOnRelu) {
  ::setenv("ASCENDOPT_HOME", AOC_SOURCE_DIR, 0);
  const fs::path unrolled = fresh_dir("relu-unrolled");
  auto r = run_ascendopt("rewrite " + kRoot + "/ops/activation/relu --apply unroll --out " + unrolled.string());
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("+            CopyIn(i + 1);"), std::string::npos) << r.out;
  auto e = run_ascendopt("eval " + unrolled.string() + " --case prime_1021_fp16 --case large_1e7_fp16 --no-store --json -j 1",
                         false);
  EXPECT_EQ(e.status, 0) << e.out;
  EXPECT_EQ(e.out.find("\"verdict\": \"wrong"), std::string::npos) << e.out;
  EXPECT_NE(e.out.find("\"verdict\": \"ok\""), std::string::npos) << e.out;

  const fs::path back = fresh_dir("relu-rolled");
  auto again = run_ascendopt("rewrite " + unrolled.string() + " --remove unroll --out " + back.string());
  ASSERT_EQ(again.status, 0) << again.out;
  EXPECT_EQ(read_text(back / "op_kernel" / "relu.cpp"), read_text(kRoot + "/ops/activation/relu/op_kernel/relu.cpp"));
  fs::remove_all(unrolled.parent_path());
}

// tril declares its two TBufs in one statement and fetches one of them in a function that
// returns early; abs fetches its bfloat16 temporary inside an `if constexpr` branch. The
// removed TBuf becomes a queue of its own and is freed in the block that fetched it; both
// kernels compile and stay correct (bfloat16 takes abs's branch).
TEST(MotifEval, TbufTemporariesRemovedOnTrilAndAbs) {
  ::setenv("ASCENDOPT_HOME", AOC_SOURCE_DIR, 0);
  const fs::path tril = fresh_dir("tril-queue");
  auto r = run_ascendopt("rewrite " + kRoot + "/ops/conversion/tril --remove tbuf_temporaries --out " + tril.string());
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("+    AscendC::TBuf<AscendC::QuePosition::VECCALC> indexBuf;"), std::string::npos) << r.out;
  expect_correct(tril, "prime_1021_fp16");
  const fs::path abs = fresh_dir("abs-queue");
  r = run_ascendopt("rewrite " + kRoot + "/ops/elementwise/abs --remove tbuf_temporaries --out " + abs.string());
  ASSERT_EQ(r.status, 0) << r.out;
  expect_correct(abs, "prime_4097_bf16_wide");
  fs::remove_all(tril.parent_path());
}

// abs's Abs as a scalar loop between full barriers: the same values (float16, and bfloat16
// through float), no race.
TEST(MotifEval, VectorLoopRemovedOnAbs) {
  ::setenv("ASCENDOPT_HOME", AOC_SOURCE_DIR, 0);
  const fs::path out = fresh_dir("abs-scalar");
  auto r = run_ascendopt("rewrite " + kRoot + "/ops/elementwise/abs --remove vector_loop --out " + out.string());
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("out.SetValue(aocI"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("-        AscendC::Abs(out, x, len);"), std::string::npos) << r.out;
  expect_correct(out, "prime_1021_fp16");
  expect_correct(out, "prime_4097_bf16_wide");
  fs::remove_all(out.parent_path());
}

// add's inputs are streamed once: the hint goes after their SetGlobalBuffer, not on the
// output, and the kernel stays correct.
TEST(MotifEval, L2HintAppliedOnAdd) {
  ::setenv("ASCENDOPT_HOME", AOC_SOURCE_DIR, 0);
  const fs::path out = fresh_dir("add-l2");
  auto r = run_ascendopt("rewrite " + kRoot + "/ops/elementwise/add --apply l2_hint --out " + out.string());
  ASSERT_EQ(r.status, 0) << r.out;
  const std::string k = read_text(out / "op_kernel" / "add.cpp");
  EXPECT_NE(k.find("xGm.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);"), std::string::npos) << r.out;
  EXPECT_NE(k.find("yGm.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);"), std::string::npos) << r.out;
  EXPECT_EQ(k.find("zGm.SetL2CacheHint"), std::string::npos) << r.out;
  expect_correct(out, "prime_1021_fp16");
  fs::remove_all(out.parent_path());
}

// tril with its strided copies written as one copy per row (by hand, not by the rewriter):
// apply merges each loop into one multi-row DataCopyPad under a units test, and the kernel
// stays correct, the column chunks of the wide case included.
TEST(MotifEval, StridedCopyAppliedToPerRowTril) {
  ::setenv("ASCENDOPT_HOME", AOC_SOURCE_DIR, 0);
  const fs::path rows = fresh_dir("tril-rows");
  fs::create_directories(rows);
  fs::copy(kRoot + "/ops/conversion/tril/op_kernel", rows / "op_kernel");
  fs::copy(kRoot + "/ops/conversion/tril/op_host", rows / "op_host");
  std::ofstream(rows / "candidate.toml") << "package = \"" << kRoot << "/ops/conversion/tril\"\n";
  std::string k = read_text(rows / "op_kernel" / "tril.cpp");
  auto swap = [&](const std::string& from, const std::string& to) {
    const size_t at = k.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    k.replace(at, from.size(), to);
  };
  swap("        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(this->len * sizeof(T)),\n"
       "                                              static_cast<uint32_t>((t.cols - this->len) * sizeof(T)), this->ubRowGap, 0};\n"
       "        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};\n"
       "        AscendC::DataCopyPad(xLocal, xGm[firstRow * t.cols + this->col], copyParams, padParams);\n",
       "        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};\n"
       "        for (uint32_t r = 0; r < rows; r++) {\n"
       "            AscendC::DataCopyExtParams rowParams{1, static_cast<uint32_t>(this->len * sizeof(T)), 0, 0, 0};\n"
       "            AscendC::DataCopyPad(xLocal[r * t.colsPadded], xGm[firstRow * t.cols + this->col + r * t.cols], rowParams, padParams);\n"
       "        }\n");
  swap("        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(this->len * sizeof(T)),\n"
       "                                              this->ubRowGap, static_cast<uint32_t>((t.cols - this->len) * sizeof(T)), 0};\n"
       "        AscendC::DataCopyPad(yGm[firstRow * t.cols + this->col], yLocal, copyParams);\n",
       "        for (uint32_t r = 0; r < rows; r++) {\n"
       "            AscendC::DataCopyExtParams rowParams{1, static_cast<uint32_t>(this->len * sizeof(T)), 0, 0, 0};\n"
       "            AscendC::DataCopyPad(yGm[firstRow * t.cols + this->col + r * t.cols], yLocal[r * t.colsPadded], rowParams);\n"
       "        }\n");
  std::ofstream(rows / "op_kernel" / "tril.cpp") << k;

  const fs::path merged = fresh_dir("tril-merged");
  auto r = run_ascendopt("rewrite " + rows.string() + " --apply strided_copy --out " + merged.string());
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("+            AscendC::DataCopyPad(xLocal, xGm[firstRow * t.cols + this->col], aocRows, padParams);"),
            std::string::npos) << r.out;
  EXPECT_NE(r.out.find("+            AscendC::DataCopyPad(yGm[firstRow * t.cols + this->col], yLocal, aocRows);"),
            std::string::npos) << r.out;
  auto e = run_ascendopt("eval " + merged.string() + " --case prime_1021_fp16 --case wide_rows_fp16 --case rank3_4097_bf16_diag_pos"
                         " --no-store --json -j 1", false);
  EXPECT_EQ(e.status, 0) << e.out;
  EXPECT_EQ(e.out.find("\"verdict\": \"wrong"), std::string::npos) << e.out;
  EXPECT_NE(e.out.find("\"verdict\": \"ok\""), std::string::npos) << e.out;
  fs::remove_all(rows.parent_path());
}

}  // namespace

// quantize_per_channel takes its buffer count from the tiling (one for rows too long for
// two), so its copy-in goes ahead only when the tiling gave two buffers. With tiles of one
// row (several per core) the kernel is correct both ways; with one buffer, going ahead would
// wait forever for a second (the evaluator reports that AllocTensor as a deadlock).
TEST(MotifEval, EarlyCopyInTestsTheBufferCountOfQuantizePerChannel) {
  ::setenv("ASCENDOPT_HOME", AOC_SOURCE_DIR, 0);
  const fs::path out = fresh_dir("quant-copy-ahead");
  auto r = run_ascendopt("rewrite " + kRoot + "/ops/quant/quantize_per_channel --apply early_copy_in --out " + out.string());
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(read_text(out / "op_kernel" / "quantize_per_channel.cpp").find("this->copyInAhead = tiling.bufferNum >= 2;"),
            std::string::npos)
      << r.out;
  const fs::path host = out / "op_host" / "quantize_per_channel.cpp";
  std::string h = read_text(host);
  auto default_of = [&](const std::string& from, const std::string& to) {
    const size_t at = h.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    h.replace(at, from.size(), to);
    std::ofstream(host) << h;
  };
  default_of("tuning::Knob(\"rows_per_tile_cap\", 0,", "tuning::Knob(\"rows_per_tile_cap\", 1,");
  expect_correct(out, "aligned_fp16");
  default_of("tuning::Knob(\"buffer_num\", BUFFER_NUM,", "tuning::Knob(\"buffer_num\", 1,");
  expect_correct(out, "aligned_fp16");
  fs::remove_all(out.parent_path());
}
