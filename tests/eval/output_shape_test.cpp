// An operator whose host code registers no InferShape gets its output shapes from op.toml:
// reduce_sum with its InferShape registration taken out runs its cases against the golden only
// when [[outputs]] says y is x's shape without the last axis; without it, y is taken to be
// shaped like x and the case fails.
#include <gtest/gtest.h>

#include <filesystem>

#include "eval/eval_test_support.h"
#include "scratch_dir.h"

namespace {

namespace fs = std::filesystem;
using aoc::eval::testing::replace_once;

aoc::eval::CandidateReport run(const fs::path& dir) {
  aoc::eval::CandidateEvalOptions opt =
      aoc::eval::testing::test_options({"aligned_2d_fp32", "rank3_bf16_asymmetric", "rank1_fp32_long_row"});
  opt.seed = 5;
  opt.soc = "";
  return aoc::eval::testing::evaluate_dir(dir, opt);
}

TEST(OutputShape, AShapeWrittenInOpTomlStandsInForAMissingInferShape) {
  aoc::testing::ScratchDir tmp("output-shape");
  const fs::path pkg = tmp.path() / "reduce_sum";
  fs::copy(fs::path(AOC_SOURCE_DIR) / "ops/reduction/reduce_sum", pkg, fs::copy_options::recursive);
  fs::remove_all(pkg / "expert");
  ASSERT_TRUE(replace_once(pkg / "op_host/reduce_sum.cpp", "this->SetInferShape(ge::InferShape);", ""));

  const aoc::eval::CandidateReport without = run(pkg);
  EXPECT_NE(without.verdict, aoc::eval::Verdict::Ok) << "y taken to be shaped like x";

  ASSERT_TRUE(replace_once(pkg / "op.toml", "[[outputs]]\nname = \"y\"\ndtypes = [\"float16\", \"bfloat16\", \"float32\"]\n",
               "[[outputs]]\nname = \"y\"\ndtypes = [\"float16\", \"bfloat16\", \"float32\"]\nshape = [\"x[:-1]\"]\n"));
  const aoc::eval::CandidateReport with = run(pkg);
  EXPECT_EQ(with.verdict, aoc::eval::Verdict::Ok) << with.message;
  ASSERT_EQ(with.cases.size(), 3u);
  for (const auto& c : with.cases) EXPECT_EQ(c.verdict, aoc::eval::Verdict::Ok) << c.name << ": " << c.message;
}

}  // namespace
