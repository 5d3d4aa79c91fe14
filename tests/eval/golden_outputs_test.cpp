// A golden with several outputs of different shapes gets one buffer per output, each the
// size of its own shape, and writes each from its own input (foreach_add_scalar: y_i =
// x_i + alpha). Every public case of the package has tensors of different sizes.
#include <gtest/gtest.h>

#include <cmath>
#include <variant>

#include "build/op_build.h"
#include "eval_test_support.h"
#include "package/case_inputs.h"
#include "package/golden.h"

using namespace aoc::eval;
using namespace aoc::eval::testing;

TEST(GoldenOutputs, EachOutputIsSizedByItsOwnShape) {
  const aoc::package::OpPackage p = aoc::package::load_op_package(source_root() / "ops/foreach/foreach_add_scalar");
  const aoc::build::BuildResult so = shared_builder().build(aoc::build::golden_build_request(p, source_root()));
  ASSERT_TRUE(so.ok) << so.log;
  const auto golden = aoc::package::GoldenLibrary::open(so.library);
  size_t checked = 0;
  for (size_t c = 0; c < p.cases.size(); ++c) {
    const auto inputs = aoc::package::make_case_inputs(p, c, 7);
    ASSERT_EQ(inputs.size(), 4u);
    if (inputs[0].data.to_double().size() == inputs[3].data.to_double().size()) continue;
    const aoc::package::GoldenLibrary::Inputs in(inputs);
    const auto r = golden.run(p, p.cases[c], in);
    ASSERT_TRUE(r.ok) << r.error;
    ASSERT_EQ(r.outputs.size(), 4u);
    double alpha = 1.0;  // the attribute's default
    for (const auto& [name, v] : p.case_attrs(p.cases[c]))
      if (name == "alpha") alpha = std::get<double>(v);
    for (size_t o = 0; o < 4; ++o) {
      ASSERT_EQ(r.outputs[o].size(), in.values[o].size()) << p.cases[c].name << " output y" << o;
      for (size_t k = 0; k < r.outputs[o].size(); k += 97)
        if (std::isfinite(in.values[o][k]))
          EXPECT_DOUBLE_EQ(r.outputs[o][k], in.values[o][k] + alpha) << p.cases[c].name << " y" << o << "[" << k << "]";
    }
    ++checked;
  }
  EXPECT_GT(checked, 0u) << "no public case of foreach_add_scalar has tensors of different sizes";
}
