// Scalar access through LocalTensor::operator() and GlobalTensor::operator() (aoc/scalar_ref.h)
// is traced, charged and race-checked like GetValue/SetValue: kernels of tests/data/scalar_operator
// run through the real evaluator in a copy of the add package.
#include <gtest/gtest.h>

#include "eval/package_copy.h"
#include "sim/soc.h"

namespace {

const std::filesystem::path kKernels = std::filesystem::path(AOC_SOURCE_DIR) / "tests/data/scalar_operator";

std::string kernel(const std::string& name) { return aoc::test::read_text(kKernels / name); }

std::string with_reads(int reads) {
  std::string src = kernel("scalar_reads.cpp");
  const std::string mark = "k < SCALAR_READS";
  const size_t at = src.find(mark);
  EXPECT_NE(at, std::string::npos);
  src.replace(at, mark.size(), "k < " + std::to_string(reads));
  return src;
}

struct Timed {
  double task_us = 0, scalar_us = 0;
};

// tiny_fp16: [5], one core, one tile, so the loop runs once.
Timed run_reads(int reads) {
  aoc::test::AddPackageCopy pkg(with_reads(reads));
  const auto r = pkg.run("Ascend910B1", {"tiny_fp16"});
  EXPECT_EQ(r.verdict, aoc::eval::Verdict::Ok) << r.message;
  if (r.cases.empty() || !r.cases[0].sim_us || !r.cases[0].sim_profile) return {};
  return {*r.cases[0].sim_us, r.cases[0].sim_profile->fields.at("aiv_scalar_time")};
}

}  // namespace

// Each read is a GetValue: scalar.access_cycles (10) on the scalar unit, besides the loop's own
// basic blocks (scalar.cycles_per_block each); a plain reference cost the blocks alone.
TEST(ScalarOperator, ReadsCostAnAccessEach) {
  const aoc::sim::Soc soc = aoc::sim::load_soc("Ascend910B1");
  const Timed few = run_reads(200), many = run_reads(2200);
  const double cycles_per_read = (many.scalar_us - few.scalar_us) * soc.clock_ghz * 1e3 / 2000;
  EXPECT_GE(cycles_per_read, soc.scalar_access_cycles) << few.scalar_us << " -> " << many.scalar_us;
  EXPECT_LT(cycles_per_read, soc.scalar_access_cycles + 8 * soc.scalar_cycles_per_block);
  EXPECT_GT(many.task_us - few.task_us, 2000 * soc.scalar_access_cycles / (soc.clock_ghz * 1e3));
}

TEST(ScalarOperator, AStoreIntoATileBeingCopiedOutIsARace) {
  aoc::test::AddPackageCopy pkg(kernel("scalar_race.cpp"));
  const auto r = pkg.run("Ascend910B1", {"aligned_2d_fp16"});
  ASSERT_EQ(r.verdict, aoc::eval::Verdict::RuntimeError) << r.message;
  EXPECT_NE(r.message.find("race"), std::string::npos) << r.message;
  // The read and the store of `zLocal(0) = zLocal(0)` fold into one scalar record.
  EXPECT_NE(r.message.find("ScalarAccess (pipe S, write)"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("DataCopyPad (pipe MTE3, read)"), std::string::npos) << r.message;
}

// Stores through GlobalTensor::operator() are GM scalar stores the volume accounting counts:
// an output written that way alone is accounted for, and costs a scalar access per element.
TEST(ScalarOperator, AnOutputWrittenElementByElementIsOk) {
  aoc::test::AddPackageCopy pkg(kernel("scalar_gm_out.cpp"));
  const auto r = pkg.run("Ascend910B1", {"aligned_2d_fp16"});
  ASSERT_EQ(r.verdict, aoc::eval::Verdict::Ok) << r.message;
  aoc::test::AddPackageCopy vector_copy(aoc::test::read_text(std::filesystem::path(AOC_SOURCE_DIR) /
                                                             "ops/elementwise/add/op_kernel/add.cpp"));
  const auto v = vector_copy.run("Ascend910B1", {"aligned_2d_fp16"});
  ASSERT_EQ(v.verdict, aoc::eval::Verdict::Ok) << v.message;
  EXPECT_GT(*r.cases.at(0).sim_us, 2 * *v.cases.at(0).sim_us);
}
