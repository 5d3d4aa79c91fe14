// op.toml loading: a valid package round-trips, and every kind of mistake gives an
// error naming the file, the key and the fix.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "package/op_package.h"
#include "scratch_dir.h"

namespace fs = std::filesystem;
using aoc::package::ElemType;
using aoc::package::PackageError;

namespace {

using TempPackage = aoc::testing::ScratchPackage;

const char* kValid = R"(
name = "layer_norm"
category = "normalization"
[[inputs]]
name = "x"
dtypes = ["float16", "float32"]
[[inputs]]
name = "gamma"
dtypes = ["float16", "float32"]
[[outputs]]
name = "y"
dtypes = ["float16", "float32"]
shape_like = "x"
[[attrs]]
name = "epsilon"
type = "float"
default = 1e-5
[tolerance]
relax = 2.0
[[cases]]
name = "small"
shapes = { x = [4, 1021], gamma = [1021] }
dtype = "float32"
values = { dist = "uniform", low = -2.0, high = 2.0, special = ["nan", "-inf"] }
attrs = { epsilon = 1e-3 }
input_values = { gamma = { low = 0.5, high = 1.5 } }
)";

std::string load_error(const std::string& toml) {
  TempPackage t(toml);
  try {
    aoc::package::load_op_package(t.dir());
  } catch (const PackageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(OpPackage, LoadsAValidPackage) {
  TempPackage t(kValid);
  auto p = aoc::package::load_op_package(t.dir());
  EXPECT_EQ(p.name, "layer_norm");
  EXPECT_EQ(p.op_type, "LayerNorm");
  EXPECT_EQ(p.kernel, "layer_norm");
  ASSERT_EQ(p.inputs.size(), 2u);
  EXPECT_EQ(p.variant_count(), 2u);
  EXPECT_EQ(p.inputs[0].dtypes[1], ElemType::F32);
  ASSERT_EQ(p.cases.size(), 1u);
  const auto& c = p.cases[0];
  EXPECT_EQ(c.variant, 1u);
  EXPECT_EQ(c.shapes.at("gamma"), std::vector<int64_t>{1021});
  EXPECT_EQ(p.output_shape(c, 0), (std::vector<int64_t>{4, 1021}));
  EXPECT_DOUBLE_EQ(c.values.low, -2.0);
  ASSERT_EQ(c.values.special.size(), 2u);
  EXPECT_TRUE(std::isnan(c.values.special[0]));
  EXPECT_DOUBLE_EQ(c.input_values.at("gamma").low, 0.5);
  EXPECT_TRUE(c.input_values.at("gamma").special.size() == 2u);  // inherits the case's specials
  auto attrs = p.case_attrs(c);
  ASSERT_EQ(attrs.size(), 1u);
  EXPECT_DOUBLE_EQ(std::get<double>(attrs[0].second), 1e-3);
  EXPECT_DOUBLE_EQ(p.tolerance.relax, 2.0);
}

TEST(OpPackage, MissingKeyNamesFileKeyAndFix) {
  std::string toml = kValid;
  toml.replace(toml.find("name = \"layer_norm\""), 19, "");
  const std::string e = load_error(toml);
  EXPECT_NE(e.find("op.toml"), std::string::npos) << e;
  EXPECT_NE(e.find("key 'name'"), std::string::npos) << e;
  EXPECT_NE(e.find("missing"), std::string::npos) << e;
  EXPECT_NE(e.find("add name ="), std::string::npos) << e;
}

TEST(OpPackage, BadDtypeListsAcceptedNames) {
  std::string toml = kValid;
  toml.replace(toml.find("[\"float16\", \"float32\"]"), 22, "[\"f16\", \"float32\"]");
  const std::string e = load_error(toml);
  EXPECT_NE(e.find("inputs[0].dtypes"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown dtype 'f16'"), std::string::npos) << e;
  EXPECT_NE(e.find("float16"), std::string::npos) << e;
  EXPECT_NE(e.find("op.toml:6:"), std::string::npos) << e;  // line of the offending value
}

TEST(OpPackage, UnknownKeyIsATypo) {
  std::string toml = kValid;
  toml.replace(toml.find("shapes = {"), 6, "shapez");
  const std::string e = load_error(toml);
  EXPECT_NE(e.find("cases[0].shapez"), std::string::npos) << e;
  EXPECT_NE(e.find("known keys"), std::string::npos) << e;
}

TEST(OpPackage, CaseErrors) {
  std::string toml = kValid;
  toml.replace(toml.find("dtype = \"float32\""), 17, "dtype = \"int32\"");
  EXPECT_NE(load_error(toml).find("has no int32 variant"), std::string::npos);
  toml = kValid;
  toml.replace(toml.find("gamma = [1021]"), 14, "gamma = [0]");
  EXPECT_NE(load_error(toml).find("positive integers"), std::string::npos);
  toml = kValid;
  toml.replace(toml.find("attrs = { epsilon"), 17, "attrs = { eps");
  EXPECT_NE(load_error(toml).find("no attribute named 'eps'"), std::string::npos);
  toml = kValid;
  toml.replace(toml.find("relax = 2.0"), 11, "relax = 50.0");
  EXPECT_NE(load_error(toml).find("at most 10x"), std::string::npos);
}

TEST(OpPackage, MismatchedVariantCounts) {
  std::string toml = kValid;
  toml.replace(toml.rfind("dtypes = [\"float16\", \"float32\"]"), 31, "dtypes = [\"float16\"]");
  const std::string e = load_error(toml);
  EXPECT_NE(e.find("outputs[0].dtypes"), std::string::npos) << e;
  EXPECT_NE(e.find("one entry per dtype variant"), std::string::npos) << e;
}

TEST(OpPackage, SyntaxErrorAndMissingFile) {
  EXPECT_NE(load_error("name = \n").find("TOML syntax error"), std::string::npos);
  try {
    aoc::package::load_op_package("/nonexistent/aoc/pkg");
    FAIL();
  } catch (const PackageError& e) {
    EXPECT_NE(std::string(e.what()).find("not found"), std::string::npos);
  }
}

TEST(OpPackage, PerformanceCaseCarriesItsSource) {
  std::string toml = kValid;
  toml += "perf = true\nsource = \"LLaMA-3-8B prefill 2048 tokens x hidden 4096\"\n";
  TempPackage t(toml);
  auto p = aoc::package::load_op_package(t.dir());
  ASSERT_EQ(p.cases.size(), 1u);
  EXPECT_TRUE(p.cases[0].perf);
  EXPECT_EQ(p.cases[0].source, "LLaMA-3-8B prefill 2048 tokens x hidden 4096");

  TempPackage plain(kValid);  // cases are not performance cases unless they say so
  EXPECT_FALSE(aoc::package::load_op_package(plain.dir()).cases[0].perf);
}

TEST(OpPackage, PerformanceCaseErrorsNameCaseAndField) {
  // perf = true without a source: the provenance is the point of a performance case.
  std::string e = load_error(std::string(kValid) + "perf = true\n");
  EXPECT_NE(e.find("cases[0].source"), std::string::npos) << e;
  EXPECT_NE(e.find("case 'small'"), std::string::npos) << e;
  EXPECT_NE(e.find("add source ="), std::string::npos) << e;
  EXPECT_NE(e.find("op.toml"), std::string::npos) << e;

  e = load_error(std::string(kValid) + "perf = \"yes\"\nsource = \"BERT-base\"\n");
  EXPECT_NE(e.find("cases[0].perf"), std::string::npos) << e;
  EXPECT_NE(e.find("true or false"), std::string::npos) << e;

  e = load_error(std::string(kValid) + "perf = true\nsource = \"  \"\n");
  EXPECT_NE(e.find("cases[0].source"), std::string::npos) << e;
  EXPECT_NE(e.find("is empty"), std::string::npos) << e;

  e = load_error(std::string(kValid) + "perf = true\nsource = 7\n");
  EXPECT_NE(e.find("must be a string"), std::string::npos) << e;
}
