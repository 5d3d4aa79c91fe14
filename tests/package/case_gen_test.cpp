// Hidden case generation, case-set selection, output shapes from InferShape, and the
// rules every package's public cases follow (run over every op.toml in ops/).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <set>
#include <variant>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <unistd.h>

#include "aoc/host/op_registry.h"
#include "package/case_gen.h"
#include "package/case_inputs.h"

namespace fs = std::filesystem;
using namespace aoc::package;

namespace {

class TempPackage {
 public:
  explicit TempPackage(const std::string& toml) {
    dir_ = fs::temp_directory_path() / ("aoc_gen_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++));
    fs::create_directories(dir_);
    std::ofstream(dir_ / "op.toml") << toml;
  }
  ~TempPackage() { fs::remove_all(dir_); }
  OpPackage load() const { return load_op_package(dir_); }

 private:
  static inline int counter_ = 0;
  fs::path dir_;
};

const std::string kNorm = R"(
name = "row_norm"
op_type = "RowNormGenTest"
[[inputs]]
name = "x"
dtypes = ["float16", "float32"]
[[inputs]]
name = "gamma"
dtypes = ["float16", "float32"]
[[outputs]]
name = "y"
dtypes = ["float16", "float32"]
[[outputs]]
name = "row_sum"
dtypes = ["float32", "float32"]
[[attrs]]
name = "epsilon"
type = "float"
default = 1e-5
[hidden]
count = 200
rank = [2, 4]
elements = [1000, 200000]
dtypes = ["float16"]
values = ["medium", "special", { low = 0.5, high = 2.0 }]
input_values = { gamma = { low = 0.5, high = 1.5 } }
input_dims = { gamma = [-1] }
attrs = { epsilon = [1e-5, 1e-3] }
)";

const std::string kCase = R"(
[[cases]]
name = "c0"
shapes = { x = [4, 1021], gamma = [1021] }
)";

}  // namespace

TEST(HiddenCases, FollowTheGeneratorParameters) {
  TempPackage t(kNorm + kCase);
  OpPackage p = t.load();
  auto cases = generate_hidden_cases(p, HiddenDraw{12345});
  ASSERT_EQ(cases.size(), 200u);
  size_t unaligned = 0, prime_inner = 0;
  std::set<std::string> value_kinds;
  std::set<double> eps;
  for (const auto& c : cases) {
    const auto& x = c.shapes.at("x");
    EXPECT_GE(x.size(), 2u);
    EXPECT_LE(x.size(), 4u);
    EXPECT_LE(element_count(x), 200000 + 200000 / 2) << c.name;
    EXPECT_GE(element_count(x), 1) << c.name;
    EXPECT_EQ(c.shapes.at("gamma"), std::vector<int64_t>{x.back()});
    EXPECT_EQ(c.variant, 0u);  // only float16 was listed
    EXPECT_EQ(c.input_values.at("gamma").low, 0.5);
    eps.insert(std::get<double>(c.attrs.at("epsilon")));
    unaligned += innermost_unaligned(p, c);
    bool prime = x.back() > 1;
    for (int64_t d = 2; d * d <= x.back(); ++d) prime = prime && x.back() % d != 0;
    prime_inner += prime;
    value_kinds.insert(c.values.special.empty() ? std::to_string(c.values.low) : "special");
  }
  EXPECT_GE(unaligned * 2, cases.size());
  EXPECT_GE(prime_inner * 4, cases.size());
  EXPECT_EQ(value_kinds.size(), 3u);
  EXPECT_EQ(eps.size(), 2u);
}

// A kernel that splits the elements evenly over its cores declares elements_multiple: every
// hidden case of every rank keeps to it (and to inner_multiple), the shrinker's check agrees, and
// `ops list` / `fuzz` report it.
TEST(HiddenCases, AnElementCountMultipleIsKept) {
  std::string toml = kNorm;
  toml.replace(toml.find("rank = [2, 4]"), 13, "rank = [1, 3]\ninner_multiple = 4\nelements_multiple = 48");
  toml.replace(toml.find("input_dims = { gamma = [-1] }"), 29, "");
  TempPackage t(toml + "\n[[cases]]\nname = \"c0\"\nshapes = { x = [4, 1020], gamma = [4, 1020] }\n");
  OpPackage p = t.load();
  EXPECT_EQ(p.hidden.elements_multiple, 48);
  size_t rank1 = 0;
  for (const auto& c : generate_hidden_cases(p, HiddenDraw{99})) {
    const auto& x = c.shapes.at("x");
    EXPECT_EQ(element_count(x) % 48, 0) << c.name;
    // Rounded down to the multiple, not multiplied up to it: beyond the drawn size only when the
    // other dimensions leave no smaller multiple (the least outermost dimension that gives one).
    const int64_t rest = element_count(x) / x.front(), q = 48 / std::gcd(rest, int64_t{48});
    EXPECT_LE(element_count(x), std::max(p.hidden.elements_max, q * rest)) << c.name;
    EXPECT_EQ(x.back() % 4, 0) << c.name;
    EXPECT_EQ(shape_outside_declared(p.hidden, x), "") << c.name;
    rank1 += x.size() == 1;
  }
  EXPECT_GT(rank1, 0u);
  EXPECT_EQ(shape_outside_declared(p.hidden, {5, 4}), "20 elements are not a multiple of [hidden].elements_multiple");
  EXPECT_EQ(declared_support(p.hidden), "rank 1..3, innermost a multiple of 4, elements a multiple of 48");

  std::string bad = toml;
  bad.replace(bad.find("elements_multiple = 48"), 22, "elements_multiple = 0");
  TempPackage u(bad + kCase);
  try {
    u.load();
    ADD_FAILURE() << "elements_multiple = 0 loaded";
  } catch (const PackageError& e) {
    EXPECT_NE(std::string(e.what()).find("hidden.elements_multiple"), std::string::npos) << e.what();
  }
}

TEST(HiddenCases, SameSeedSameCasesOtherSeedOthers) {
  TempPackage t(kNorm + kCase);
  OpPackage p = t.load();
  auto a = generate_hidden_cases(p, HiddenDraw{7});
  auto b = generate_hidden_cases(p, HiddenDraw{7});
  auto c = generate_hidden_cases(p, HiddenDraw{8});
  size_t same = 0, differ = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    same += a[i].shapes == b[i].shapes;
    differ += a[i].shapes != c[i].shapes;
  }
  EXPECT_EQ(same, a.size());
  EXPECT_GT(differ, a.size() / 2);
}

TEST(HiddenCases, DrawCanCapCountAndSize) {
  TempPackage t(kNorm + kCase);
  OpPackage p = t.load();
  auto cases = generate_hidden_cases(p, HiddenDraw{1, 5, 5000});
  ASSERT_EQ(cases.size(), 5u);
  for (const auto& c : cases) EXPECT_LE(element_count(c.shapes.at("x")), 5000 + 2500);
}

TEST(HiddenCases, CaseSetSelection) {
  TempPackage t(kNorm + kCase);
  OpPackage p = t.load();
  EXPECT_EQ(with_case_set(p, CaseSet::Public, {3}).cases.size(), 1u);
  EXPECT_EQ(with_case_set(p, CaseSet::Hidden, {3}).cases.size(), 200u);
  auto all = with_case_set(p, CaseSet::All, {3});
  ASSERT_EQ(all.cases.size(), 201u);
  EXPECT_EQ(all.cases[0].name, "c0");
  EXPECT_EQ(all.cases[1].name, "hidden_0");
  EXPECT_EQ(parse_case_set("all"), CaseSet::All);
  EXPECT_FALSE(parse_case_set("private").has_value());
}

TEST(HiddenCases, SeedFromEnvironmentOrFresh) {
  ::setenv("ASCENDOPT_HIDDEN_SEED", "0x2a", 1);
  EXPECT_EQ(hidden_seed_from_environment(), 42u);
  ::setenv("ASCENDOPT_HIDDEN_SEED", "12abc", 1);
  EXPECT_THROW(hidden_seed_from_environment(), std::invalid_argument);
  ::unsetenv("ASCENDOPT_HIDDEN_SEED");
  EXPECT_NE(hidden_seed_from_environment(), hidden_seed_from_environment());
}

TEST(HiddenSection, MistakesNameKeyAndFix) {
  auto error_of = [](const std::string& hidden) {
    TempPackage t(kNorm.substr(0, kNorm.find("[hidden]")) + hidden + kCase);
    try {
      t.load();
    } catch (const PackageError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error_of("[hidden]\nranks = [1, 2]\n").find("hidden.ranks"), std::string::npos);
  EXPECT_NE(error_of("[hidden]\nrank = [3, 1]\n").find("[min, max]"), std::string::npos);
  EXPECT_NE(error_of("[hidden]\nvalues = [\"huge\"]\n").find("unknown value range 'huge'"), std::string::npos);
  EXPECT_NE(error_of("[hidden]\ndtypes = [\"int8\"]\n").find("no int8 variant"), std::string::npos);
  EXPECT_NE(error_of("[hidden]\ninput_dims = { y = [0] }\n").find("hidden.input_dims.y"), std::string::npos);
  EXPECT_NE(error_of("[hidden]\nattrs = { epsilon = [\"a\"] }\n").find("hidden.attrs.epsilon"), std::string::npos);
}

// Output shapes come from the op's registered InferShape when op.toml gives no shape_like.
namespace {
ge::graphStatus row_norm_infer(gert::InferShapeContext* ctx) {
  const gert::Shape* x = ctx->GetInputShape(0);
  *ctx->GetOutputShape(0) = *x;
  gert::Shape* sum = ctx->GetOutputShape(1);
  for (size_t d = 0; d + 1 < x->GetDimNum(); ++d) sum->AppendDim(x->GetDim(d));
  return x->GetDimNum() > 1 ? ge::GRAPH_SUCCESS : ge::GRAPH_FAILED;
}
}  // namespace

TEST(OutputShape, FromInferShapeThenShapeLikeThenFirstInput) {
  TempPackage t(kNorm + kCase);
  OpPackage p = t.load();
  const CaseSpec& c = p.cases[0];
  aoc::host::OpRegistry::instance().remove(p.op_type);
  EXPECT_EQ(p.output_shape(c, 1), (std::vector<int64_t>{4, 1021}));  // nothing registered: first input
  ops::OpDef def(p.op_type.c_str());
  def.SetInferShape(row_norm_infer);
  aoc::host::OpRegistry::instance().add(def);
  EXPECT_EQ(p.output_shape(c, 0), (std::vector<int64_t>{4, 1021}));
  EXPECT_EQ(p.output_shape(c, 1), (std::vector<int64_t>{4}));
  p.outputs[1].shape_like = "gamma";
  EXPECT_EQ(p.output_shape(c, 1), (std::vector<int64_t>{1021}));
  p.outputs[1].shape_like.clear();
  CaseSpec rank1 = c;
  rank1.shapes["x"] = {1021};
  try {
    p.output_shape(rank1, 1);
    ADD_FAILURE() << "InferShape failure not reported";
  } catch (const PackageError& e) {
    EXPECT_NE(std::string(e.what()).find("InferShape of RowNormGenTest returned failure"), std::string::npos) << e.what();
  }
  aoc::host::OpRegistry::instance().remove(p.op_type);
}

TEST(PublicCaseRules, EachRuleReportsItsProblem) {
  TempPackage t(kNorm + kCase);
  OpPackage p = t.load();
  auto has = [](const std::vector<std::string>& v, const std::string& s) {
    for (const auto& x : v)
      if (x.find(s) != std::string::npos) return true;
    return false;
  };
  auto problems = validate_public_cases(p);
  EXPECT_TRUE(has(problems, "1 public cases")) << problems.size();
  EXPECT_TRUE(has(problems, "no large case"));
  EXPECT_TRUE(has(problems, "no public case of rank 3"));
  EXPECT_TRUE(has(problems, "no public case injects nan"));
  EXPECT_FALSE(has(problems, "512 B"));  // 1021 fp16 elements: unaligned
  EXPECT_FALSE(has(problems, "Unified Buffer"));

  // Make it conform: 8 unique cases, ranks 2..4, one large, one with specials.
  p.cases.clear();
  for (int i = 0; i < 8; ++i) {
    CaseSpec c;
    c.name = "c" + std::to_string(i);
    const int64_t inner = i % 2 ? 1024 : 1021;
    c.shapes["x"] = i == 0 ? std::vector<int64_t>{1, 2, 5003, inner} : std::vector<int64_t>(2 + i % 3, 3 + i);
    c.shapes["x"].back() = inner;
    c.shapes["gamma"] = {inner};
    if (i == 1) c.values.special = {NAN, INFINITY, -INFINITY};
    p.cases.push_back(c);
  }
  problems = validate_public_cases(p);
  EXPECT_TRUE(problems.empty()) << problems.front();
  p.cases[7] = p.cases[5];
  p.cases[7].name = "copy";
  EXPECT_TRUE(has(validate_public_cases(p), "repeats another case"));
  for (auto& c : p.cases) c.shapes["x"].back() = c.shapes["gamma"][0] = 512;
  EXPECT_TRUE(has(validate_public_cases(p), "not a multiple of 512 B"));
}

// The suite itself: every package loads. Its public cases are checked against the rules
// of evaluation.md section 4 by `ascendopt ops list --check`, which lists what each
// package still lacks.
TEST(PublicCaseRules, EveryPackageInTheSuiteLoads) {
  const auto dirs = find_op_packages(fs::path(AOC_SOURCE_DIR) / "ops");
  ASSERT_FALSE(dirs.empty());
  for (const auto& d : dirs) {
    try {
      load_op_package(d);
    } catch (const PackageError& e) {
      ADD_FAILURE() << e.what();
    }
  }
}
