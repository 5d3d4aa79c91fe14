// The request the evaluator writes for the harness child carries every attribute value as the
// golden saw it, including the floats JSON cannot spell (infinities and NaN).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>

#include "eval/harness_protocol.h"
#include "scratch_dir.h"

namespace aoc::eval {
namespace {

TEST(HarnessProtocol, NonFiniteFloatAttributesSurviveTheRequest) {
  aoc::testing::ScratchDir dir("protocol");
  constexpr double kInf = std::numeric_limits<double>::infinity();
  HarnessRequest r;
  r.kernel_symbol = "masked_fill_custom";
  r.op_type = "MaskedFillCustom";
  r.attrs = {{"value", -kInf},
             {"high", kInf},
             {"missing", std::numeric_limits<double>::quiet_NaN()},
             {"scale", 0.5},
             {"bounds", std::vector<double>{-kInf, 1.25, kInf}},
             {"axes", std::vector<int64_t>{0, -1}},
             {"keep", true},
             {"mode", std::string("inf")}};
  write_request(dir.path(), r);
  const HarnessRequest back = read_request(dir.path());
  ASSERT_EQ(back.attrs.size(), r.attrs.size());
  EXPECT_EQ(std::get<double>(back.attrs[0].second), -kInf);
  EXPECT_EQ(std::get<double>(back.attrs[1].second), kInf);
  EXPECT_TRUE(std::isnan(std::get<double>(back.attrs[2].second)));
  EXPECT_EQ(std::get<double>(back.attrs[3].second), 0.5);
  EXPECT_EQ(std::get<std::vector<double>>(back.attrs[4].second), (std::vector<double>{-kInf, 1.25, kInf}));
  EXPECT_EQ(std::get<std::vector<int64_t>>(back.attrs[5].second), (std::vector<int64_t>{0, -1}));
  EXPECT_EQ(std::get<bool>(back.attrs[6].second), true);
  EXPECT_EQ(std::get<std::string>(back.attrs[7].second), "inf") << "a string attribute stays a string";
}

TEST(HarnessProtocol, AFloatAttributeThatIsNoNumberIsAClearError) {
  aoc::testing::ScratchDir dir("protocol");
  HarnessRequest r;
  r.kernel_symbol = "k";
  r.op_type = "K";
  r.attrs = {{"value", 1.0}};
  write_request(dir.path(), r);
  std::ifstream in(dir.path() / "request.json");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  const size_t at = text.find("1.0");
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, 3, "\"infinity\"");
  std::ofstream(dir.path() / "request.json") << text;
  try {
    read_request(dir.path());
    FAIL() << "a float spelled \"infinity\" was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("\"infinity\" is not a number, inf, -inf or nan"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace aoc::eval
