// Output shapes written in op.toml (package/shape_expr.h): slices and expressions of the inputs'
// shapes and int attributes evaluate per case; a mistake is an error naming the item and what
// is wrong, at load time when a public case shows it.
#include "package/shape_expr.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "package/case_gen.h"
#include "package/op_package.h"
#include "scratch_dir.h"

namespace {

namespace fs = std::filesystem;
using aoc::package::eval_shape;
using aoc::package::parse_shape_item;
using aoc::package::ShapeExprError;
using aoc::package::ShapeItem;
using Shape = std::vector<int64_t>;

const std::vector<std::string> kInputs = {"x", "w"};
const std::vector<std::string> kAttrs = {"kernel", "stride"};

Shape eval(const std::vector<std::string>& items, const std::map<std::string, Shape>& shapes,
           const std::map<std::string, int64_t>& attrs = {}) {
  std::vector<ShapeItem> parsed;
  for (const auto& s : items) parsed.push_back(parse_shape_item(s, kInputs, kAttrs));
  return eval_shape(parsed, shapes, attrs);
}

// The error text of parsing `item`, "" when it parses.
std::string parse_error(const std::string& item) {
  try {
    parse_shape_item(item, kInputs, kAttrs);
    return "";
  } catch (const ShapeExprError& e) {
    return e.what();
  }
}

TEST(ShapeExpr, SlicesFollowPythonsRules) {
  const std::map<std::string, Shape> s = {{"x", {2, 3, 5, 7}}};
  EXPECT_EQ(eval({"x"}, s), (Shape{2, 3, 5, 7}));
  EXPECT_EQ(eval({"x[:-1]"}, s), (Shape{2, 3, 5}));
  EXPECT_EQ(eval({"x[1:]"}, s), (Shape{3, 5, 7}));
  EXPECT_EQ(eval({"x[ 1 : -1 ]"}, s), (Shape{3, 5}));
  EXPECT_EQ(eval({"x[:-1]", "1"}, s), (Shape{2, 3, 5, 1}));
  EXPECT_EQ(eval({"x[-9:2]"}, s), (Shape{2, 3})) << "bounds are clamped to the rank";
  EXPECT_EQ(eval({"x[:-1]"}, {{"x", {9}}}), Shape{}) << "a rank-1 input reduced to a scalar";
}

TEST(ShapeExpr, ExpressionsOfDimensionsAndAttributes) {
  const std::map<std::string, Shape> s = {{"x", {4, 3, 32, 31}}, {"w", {8, 3}}};
  const std::map<std::string, int64_t> a = {{"kernel", 3}, {"stride", 2}};
  EXPECT_EQ(eval({"x[0]", "w[0]", "(x[2] - kernel) / stride + 1", "(x[-1] - kernel) / stride + 1"}, s, a),
            (Shape{4, 8, 15, 15}));
  EXPECT_EQ(eval({"ceildiv(x[-1], stride)", "x[-1] % 4", "min(x[0], w[0]) * 2", "max(x[0], w[0])", "-x[0] + 10"}, s, a),
            (Shape{16, 3, 8, 8, 6}));
  EXPECT_EQ(eval({"(0 - x[-1]) / 2 + 20"}, s, a), Shape{4}) << "division rounds down, as Python's //";
}

TEST(ShapeExpr, MistakesSayWhatIsWrong) {
  EXPECT_NE(parse_error("y[0]").find("'y' is neither an input nor an int attribute"), std::string::npos) << parse_error("y[0]");
  EXPECT_NE(parse_error("x + 1").find("is a shape, not a number"), std::string::npos) << parse_error("x + 1");
  EXPECT_NE(parse_error("x[0] +").find("expression ends early"), std::string::npos) << parse_error("x[0] +");
  EXPECT_NE(parse_error("(x[0]").find("expected ')'"), std::string::npos) << parse_error("(x[0]");
  EXPECT_NE(parse_error("x[:-1] + 1").find("stands alone"), std::string::npos) << parse_error("x[:-1] + 1");
  EXPECT_NE(parse_error("min(x[0])").find("takes two arguments"), std::string::npos) << parse_error("min(x[0])");
  EXPECT_EQ(parse_error("max(x[0], w[1]) / kernel"), "");

  const std::map<std::string, Shape> s = {{"x", {4, 6}}, {"w", {2}}};
  EXPECT_THROW(eval({"x[2]"}, s), ShapeExprError);                      // outside the rank
  EXPECT_THROW(eval({"x[0] / (w[0] - 2)"}, s), ShapeExprError);         // division by zero
  EXPECT_THROW(eval({"x[0] - 4"}, s), ShapeExprError);                  // a dimension of 0
  EXPECT_THROW(eval({"x[0] * kernel"}, s, {}), ShapeExprError);         // the case gives no kernel
  try {
    eval({"x[5]"}, s);
  } catch (const ShapeExprError& e) {
    EXPECT_NE(std::string(e.what()).find("x[5] is outside its rank 2"), std::string::npos) << e.what();
  }
}

using TomlPackage = aoc::testing::ScratchPackage;

std::string pooling(const std::string& shape, const std::string& case_shape = "[2, 3, 16, 16]") {
  return R"(
name = "pool"
[[inputs]]
name = "x"
dtypes = ["float32"]
[[outputs]]
name = "y"
dtypes = ["float32"]
shape = )" + shape + R"(
[[attrs]]
name = "kernel"
type = "int"
default = 2
[[attrs]]
name = "mode"
type = "string"
default = "max"
[hidden]
rank = [4, 4]
attrs = { kernel = [2, 4] }
[[cases]]
name = "small"
shape = )" + case_shape + R"(
[[cases]]
name = "k4"
shape = [1, 1, 8, 12]
attrs = { kernel = 4 }
)";
}

TEST(ShapeExpr, AnOutputShapeInOpTomlIsUsedForEveryCase) {
  const TomlPackage t(pooling(R"(["x[:2]", "x[2] / kernel", "x[3] / kernel"])"));
  const auto p = aoc::package::load_op_package(t.dir());
  ASSERT_TRUE(p.outputs[0].shape);
  EXPECT_EQ(p.output_shape(p.cases[0], 0), (Shape{2, 3, 8, 8}));
  EXPECT_EQ(p.output_shape(p.cases[1], 0), (Shape{1, 1, 2, 3}));
  const auto hidden = aoc::package::generate_hidden_cases(p, {.seed = 5, .count = 6, .max_elements = 1 << 16});
  ASSERT_FALSE(hidden.empty());
  size_t checked = 0;
  for (const auto& c : hidden) {
    const Shape& x = c.shapes.at("x");
    const int64_t k = std::get<int64_t>(c.attrs.at("kernel"));
    if (x[2] < k || x[3] < k) continue;  // pooled away: a dimension of 0, an error (MistakesSayWhatIsWrong)
    EXPECT_EQ(p.output_shape(c, 0), (Shape{x[0], x[1], x[2] / k, x[3] / k})) << c.name;
    ++checked;
  }
  EXPECT_GT(checked, 0u) << "no hidden case large enough to pool";
  EXPECT_EQ(aoc::package::load_op_package(TomlPackage(pooling("[]")).dir()).output_shape(p.cases[0], 0), Shape{});
}

TEST(ShapeExpr, AnOutputShapeMistakeIsALoadErrorNamingKeyAndCase) {
  const auto error = [](const std::string& toml) -> std::string {
    const TomlPackage t(toml);
    try {
      aoc::package::load_op_package(t.dir());
      return "";
    } catch (const aoc::package::PackageError& e) {
      return e.what();
    }
  };
  std::string e = error(pooling(R"(["x[0]", "mode"])"));
  EXPECT_NE(e.find("outputs[0].shape"), std::string::npos) << e;
  EXPECT_NE(e.find("'mode' is neither an input nor an int attribute"), std::string::npos) << e;
  e = error(pooling(R"(["x[3] / kernel"])", "[2, 3, 16]"));
  EXPECT_NE(e.find("case 'small'"), std::string::npos) << e;
  EXPECT_NE(e.find("x[3] is outside its rank 3"), std::string::npos) << e;
  e = error(pooling(R"([0])"));
  EXPECT_NE(e.find("below 1"), std::string::npos) << e;
  e = error(pooling(R"("x")"));
  EXPECT_NE(e.find("must be a list of dimensions"), std::string::npos) << e;
  std::string both = pooling(R"(["x"])");
  both.replace(both.find("shape = [\"x\"]"), 0, "shape_like = \"x\"\n");
  e = error(both);
  EXPECT_NE(e.find("both shape and shape_like"), std::string::npos) << e;
}

}  // namespace
