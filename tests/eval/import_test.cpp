// `ascendopt import` on an msopgen operator folder (tests/data/compat/msopgen_axpy): the op.toml
// comes from the OpDef (inputs, outputs, dtype columns op.toml supports, attributes with their
// defaults, kernel symbol), the golden is a template that fails until written, and the package
// passes once it is. A REQUIRED attribute gets no default: the package does not load until its
// cases and hidden draw give it a value.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "base/file_text.h"
#include "build/host_library.h"
#include "eval/eval_test_support.h"
#include "package/op_import.h"
#include "package/op_package.h"
#include "scratch_dir.h"

namespace fs = std::filesystem;

namespace {

aoc::package::HostBuild host_build() { return aoc::build::host_library_build(aoc::eval::testing::shared_builder()); }

const fs::path kFixture = fs::path(AOC_SOURCE_DIR) / "tests/data/compat/msopgen_axpy";

aoc::eval::CandidateReport evaluate(const fs::path& dir) {
  aoc::eval::CandidateEvalOptions opt = aoc::eval::testing::test_options({});
  opt.seed = 3;
  opt.soc = "";
  return aoc::eval::testing::evaluate_dir(dir, opt);
}

}  // namespace

TEST(Import, OpTomlComesFromTheOpDef) {
  aoc::testing::ScratchDir out("import");
  aoc::package::ImportOptions opt;
  opt.dir = kFixture;
  opt.out = out.path();
  const auto r = aoc::package::import_operator(opt, host_build());
  EXPECT_EQ(r.name, "axpy_custom");
  EXPECT_EQ(r.op_type, "AxpyCustom");
  EXPECT_EQ(r.kernel, "axpy_custom");
  bool double_noted = false;
  for (const auto& n : r.notes) double_noted = double_noted || n.find("DT_DOUBLE") != std::string::npos;
  EXPECT_TRUE(double_noted);

  const auto p = aoc::package::load_op_package(out.path());
  ASSERT_EQ(p.inputs.size(), 2u);
  EXPECT_EQ(p.inputs[0].name, "x");
  EXPECT_EQ(p.inputs[1].name, "y");
  ASSERT_EQ(p.outputs.size(), 1u);
  EXPECT_EQ(p.outputs[0].name, "z");
  ASSERT_EQ(p.inputs[0].dtypes.size(), 2u);  // float16, float32; the double column is left out
  EXPECT_EQ(p.inputs[0].dtypes[0], aoc::package::ElemType::F16);
  EXPECT_EQ(p.inputs[0].dtypes[1], aoc::package::ElemType::F32);
  ASSERT_EQ(p.attrs.size(), 2u);
  EXPECT_EQ(p.attrs[0].name, "alpha");
  EXPECT_EQ(p.attrs[0].type, "float");
  EXPECT_EQ(std::get<double>(*p.attrs[0].default_value), 2.5);
  EXPECT_EQ(p.attrs[1].type, "string");
  EXPECT_EQ(std::get<std::string>(*p.attrs[1].default_value), "plain");
  EXPECT_EQ(p.cases.size(), 4u);  // two per variant
  EXPECT_TRUE(fs::exists(out.path() / "op_kernel/axpy_custom.cpp"));

  // A second import does not overwrite without --force.
  EXPECT_THROW(aoc::package::import_operator(opt, host_build()), aoc::package::ImportError);
  opt.force = true;
  EXPECT_NO_THROW(aoc::package::import_operator(opt, host_build()));
}

TEST(Import, TheTemplateGoldenFailsUntilWrittenThenThePackagePasses) {
  aoc::testing::ScratchDir out("import");
  aoc::package::ImportOptions opt;
  opt.dir = kFixture;
  opt.out = out.path();
  aoc::package::import_operator(opt, host_build());
  auto r = evaluate(out.path());
  ASSERT_FALSE(r.cases.empty()) << r.message;
  EXPECT_NE(r.cases[0].message.find("still the template"), std::string::npos) << r.cases[0].message;

  // The reference written for this fixture (the public-set test exports it with the same one).
  fs::copy_file(fs::path(AOC_SOURCE_DIR) / "tests/data/public/axpy_custom.cpp", out.path() / "golden.cpp",
                fs::copy_options::overwrite_existing);
  std::ofstream(out.path() / "op.toml", std::ios::app)
      << "\n[[cases]]\nname = \"negate_fp32\"\nshape = [1000]\nvariant = 1\nattrs = { mode = \"negate\", alpha = -0.5 }\n";
  r = evaluate(out.path());
  ASSERT_EQ(r.cases.size(), 5u) << r.message;
  for (const auto& c : r.cases) EXPECT_EQ(c.verdict, aoc::eval::Verdict::Ok) << c.name << ": " << c.message;
}

namespace {

// A copy of the fixture in `dir` whose op_host source has the first `from` replaced by `to`.
fs::path fixture_with_host_edit(const fs::path& dir, const std::string& from, const std::string& to) {
  fs::copy(kFixture, dir, fs::copy_options::recursive);
  EXPECT_TRUE(aoc::eval::testing::replace_once(dir / "op_host" / "axpy_custom.cpp", from, to)) << from;
  return dir;
}

// The PackageError's text when `dir` does not load, "" when it does.
std::string load_error(const fs::path& dir) {
  try {
    aoc::package::load_op_package(dir);
    return "";
  } catch (const aoc::package::PackageError& e) {
    return e.what();
  }
}

}  // namespace

TEST(Import, ARequiredAttributeHasNoDefaultAndMustBeGivenBeforeThePackageLoads) {
  aoc::testing::ScratchDir tmp("import");
  const std::string mode = "this->Attr(\"mode\").AttrType(OPTIONAL).String(\"plain\");";
  const fs::path op = fixture_with_host_edit(tmp.path() / "axpy_shift", mode,
                                             mode + "\n        this->Attr(\"shift\").AttrType(REQUIRED).Int();");

  aoc::package::ImportOptions opt;
  opt.dir = op;
  opt.out = tmp.path() / "pkg";
  const auto r = aoc::package::import_operator(opt, host_build());
  bool noted = false;
  for (const auto& n : r.notes) noted = noted || n.find("'shift' is REQUIRED") != std::string::npos;
  EXPECT_TRUE(noted);
  const std::string toml = aoc::base::read_text(r.op_toml);
  const size_t at = toml.find("name = \"shift\"");
  ASSERT_NE(at, std::string::npos) << toml;
  EXPECT_LT(toml.find("[[cases]]", at), toml.find("\ndefault =", at)) << "a default for shift:\n" << toml;
  EXPECT_NE(toml.find("# REQUIRED in the OpDef", at), std::string::npos) << toml;

  // Not loadable until the hidden draw has choices for it ...
  std::string err = load_error(opt.out);
  EXPECT_NE(err.find("hidden cases draw no value for attribute 'shift', which has no default"), std::string::npos) << err;
  const std::string hidden = "\n[hidden]\nattrs = { shift = [1, 2] }\n";
  std::ofstream(r.op_toml) << toml << hidden;
  // ... and every case gives it.
  err = load_error(opt.out);
  EXPECT_NE(err.find("gives no value for attribute 'shift', which has no default"), std::string::npos) << err;
  std::ofstream(r.op_toml) << std::regex_replace(toml, std::regex("(\nvariant = [0-9]+\n)"), "$1attrs = { shift = 1 }\n")
                           << hidden;
  EXPECT_EQ(load_error(opt.out), "");
  const auto p = aoc::package::load_op_package(opt.out);
  ASSERT_EQ(p.attrs.size(), 3u);
  EXPECT_FALSE(p.attrs[2].default_value);
  for (const auto& c : p.cases) EXPECT_EQ(std::get<int64_t>(c.attrs.at("shift")), 1) << c.name;
}

// Public host code prints with std::cout without including <iostream>: the device toolchain's
// host headers bring it in, and so do ours. The operator imports and its tiling runs (the
// case reaches the template golden).
TEST(Import, HostCodeUsingCoutWithoutIncludingIostreamBuildsAndRuns) {
  aoc::testing::ScratchDir tmp("import");
  ASSERT_EQ(aoc::base::read_text(kFixture / "op_host" / "axpy_custom.cpp").find("iostream"), std::string::npos);
  const std::string at = "    AxpyCustomTilingData tiling;";
  const fs::path op = fixture_with_host_edit(
      tmp.path() / "axpy_cout", at,
      "    std::cout << \"tiling \" << total << \" elements on \" << cores << \" cores\" << std::endl;\n" + at);

  aoc::package::ImportOptions opt;
  opt.dir = op;
  opt.out = tmp.path() / "pkg";
  ASSERT_NO_THROW(aoc::package::import_operator(opt, host_build()));
  const auto r = evaluate(opt.out);
  ASSERT_FALSE(r.cases.empty()) << r.message;
  EXPECT_NE(r.cases[0].message.find("still the template"), std::string::npos) << r.cases[0].message;
}

// Public tiling headers carry host helpers next to the tiling struct (a compile-info struct, a
// GetCompileInfo wrapper taking gert::TilingParseContext*), which the kernel unit reads too, and
// leave the `;` off a last field; kernels call the device headers' AscendC::AlignUp unqualified,
// some beside a global AlignUp template of their own, print with an unqualified printf of a bare
// format string, and define C functions named like the C library's (an operator called div). The
// operator builds, passes the API-use check, and with its golden every case passes.
TEST(Import, TilingHeaderHostHelpersAndTheDeviceAlignUpBuildInTheKernel) {
  aoc::testing::ScratchDir tmp("import-helpers");
  const fs::path op = tmp.path() / "axpy_helpers";
  fs::copy(kFixture, op, fs::copy_options::recursive);
  ASSERT_TRUE(aoc::eval::testing::replace_once(
      op / "op_host" / "axpy_custom_tiling.h", "REGISTER_TILING_DATA_CLASS",
      "struct AxpyCompileInfo {\n  uint32_t totalCoreNum = 0;\n"
      "  platform_ascendc::SocVersion socVersion = platform_ascendc::SocVersion::ASCEND910B;\n};\n"
      "template <typename T>\ninline T* GetCompileInfoPtr(gert::TilingParseContext* context) {\n"
      "  return context->GetCompiledInfo<T>();\n}\n\nREGISTER_TILING_DATA_CLASS"));
  ASSERT_TRUE(aoc::eval::testing::replace_once(op / "op_host" / "axpy_custom_tiling.h",
                                               "#include \"register/tilingdata_base.h\"",
                                               "#include \"register/tilingdata_base.h\"\n"
                                               "#include \"tiling/platform/platform_ascendc.h\""));
  const fs::path kernel = op / "op_kernel" / "axpy_custom.cpp";
  ASSERT_TRUE(aoc::eval::testing::replace_once(
      kernel, "#include \"kernel_operator.h\"",
      "#include \"kernel_operator.h\"\nusing namespace AscendC;\n"
      "template <typename T> __aicore__ constexpr T AlignUp(T a, T b) { return (a + b - 1) / b * b; }\n"
      "extern \"C\" void div(GM_ADDR) {}"));
  ASSERT_TRUE(aoc::eval::testing::replace_once(kernel, "alpha_ = t.alpha;",
                                               "alpha_ = t.alpha;\n        if (len_ == 0) printf(\"no share\\n\");"));
  ASSERT_TRUE(aoc::eval::testing::replace_once(op / "op_host" / "axpy_custom_tiling.h",
                                               "TILING_DATA_FIELD_DEF(uint32_t, negate);",
                                               "TILING_DATA_FIELD_DEF(uint32_t, negate)"));
  ASSERT_TRUE(aoc::eval::testing::replace_once(
      kernel, "const uint32_t rest = (t.totalLength - start + blockElems - 1) / blockElems * blockElems;",
      "const uint32_t rest = AscendC::AlignUp(t.totalLength - start, blockElems);\n"
      "        static_assert(AlignUp(10, 8) == 16 && AlignUp(10u, 8u) == 16u);  // unqualified: not ambiguous"));

  aoc::package::ImportOptions opt;
  opt.dir = op;
  opt.out = tmp.path() / "pkg";
  aoc::package::import_operator(opt, host_build());
  fs::copy_file(fs::path(AOC_SOURCE_DIR) / "tests/data/public/axpy_custom.cpp", opt.out / "golden.cpp",
                fs::copy_options::overwrite_existing);
  const auto r = evaluate(opt.out);
  ASSERT_EQ(r.cases.size(), 4u) << r.message;
  for (const auto& c : r.cases) EXPECT_EQ(c.verdict, aoc::eval::Verdict::Ok) << c.name << ": " << c.message;
}

// CANN operator repositories keep the operator's aclnn API layer in op_host/ beside its OpDef and
// tiling (aclnn_<op>.cpp/.h, <op>_l0.cpp/.h), written against CANN's runtime headers that the device
// build gives only to the separate op API library. Those units are left out of the host build; the
// operator's own units build and run as before. Its tiling header is not named <op>_tiling.h (the
// kernel still finds its struct), ends the struct without `;`, and its tiling function uses
// std::array without including <array>, as public host code does.
TEST(Import, TheCannRepositoryHostLayoutBuildsAndRuns) {
  aoc::testing::ScratchDir tmp("import-aclnn");
  const fs::path op = fixture_with_host_edit(tmp.path() / "axpy_aclnn", "const uint32_t cores = blocks < 8 ? blocks : 8;",
                                             "const std::array<uint32_t, 2> caps{blocks, 8};\n"
                                             "    const uint32_t cores = caps[0] < caps[1] ? caps[0] : caps[1];");
  ASSERT_TRUE(aoc::eval::testing::replace_once(op / "op_host" / "axpy_custom_tiling.h", "END_TILING_DATA_DEF;",
                                               "END_TILING_DATA_DEF"));
  fs::rename(op / "op_host" / "axpy_custom_tiling.h", op / "op_host" / "axpy_custom_tiling_v1.h");
  ASSERT_TRUE(aoc::eval::testing::replace_once(op / "op_host" / "axpy_custom.cpp", "#include \"axpy_custom_tiling.h\"",
                                               "#include \"axpy_custom_tiling_v1.h\""));
  EXPECT_EQ(aoc::package::kernel_tiling_headers(op / "op_host", "axpy_custom"),
            std::vector<fs::path>{op / "op_host" / "axpy_custom_tiling_v1.h"});
  aoc::base::write_text(op / "op_host" / "aclnn_axpy_custom.h",
                        "#pragma once\n#include \"aclnn/aclnn_base.h\"\n"
                        "aclnnStatus aclnnAxpyCustom(void* workspace, uint64_t size, aclOpExecutor* e, aclrtStream s);\n");
  aoc::base::write_text(op / "op_host" / "aclnn_axpy_custom.cpp",
                        "#include \"aclnn_axpy_custom.h\"\n#include \"opdev/op_executor.h\"\n");
  aoc::base::write_text(op / "op_host" / "axpy_custom_l0.cpp", "#include \"opdev/make_op_executor.h\"\n");
  aoc::base::write_text(op / "op_host" / "axpy_custom_api.cpp", "#include \"axpy_custom_l0.h\"\n");
  const auto units = aoc::package::host_cpp_files(op / "op_host");
  ASSERT_EQ(units.size(), 1u);
  EXPECT_EQ(units[0].filename(), "axpy_custom.cpp");
  // A unit that registers the operator is the operator's, whatever else it includes.
  EXPECT_FALSE(aoc::package::is_op_api_source(op / "op_host" / "axpy_custom.cpp"));
  aoc::base::write_text(tmp.path() / "aclnn_registers.cpp", "#include \"aclnn/aclnn_base.h\"\nOP_ADD(AxpyCustom);\n");
  EXPECT_FALSE(aoc::package::is_op_api_source(tmp.path() / "aclnn_registers.cpp"));

  aoc::package::ImportOptions opt;
  opt.dir = op;
  opt.out = tmp.path() / "pkg";
  ASSERT_NO_THROW(aoc::package::import_operator(opt, host_build()));
  fs::copy_file(fs::path(AOC_SOURCE_DIR) / "tests/data/public/axpy_custom.cpp", opt.out / "golden.cpp",
                fs::copy_options::overwrite_existing);
  const auto r = evaluate(opt.out);
  ASSERT_EQ(r.cases.size(), 4u) << r.message;
  for (const auto& c : r.cases) EXPECT_EQ(c.verdict, aoc::eval::Verdict::Ok) << c.name << ": " << c.message;
}

TEST(Import, AFolderWithoutTheLayoutSaysWhatIsMissing) {
  aoc::testing::ScratchDir empty("import");
  fs::create_directories(empty.path());
  aoc::package::ImportOptions opt;
  opt.dir = empty.path();
  try {
    aoc::package::import_operator(opt, host_build());
    FAIL() << "no error";
  } catch (const aoc::package::ImportError& e) {
    EXPECT_NE(std::string(e.what()).find("op_host/"), std::string::npos) << e.what();
  }
}

TEST(Import, AValueDependentInputIsNoted) {
  aoc::testing::ScratchDir tmp("import-value-depend");
  const fs::path op = fixture_with_host_edit(tmp.path() / "axpy_vd", "this->Input(\"y\").ParamType(REQUIRED)",
                                             "this->Input(\"y\").ParamType(REQUIRED).ValueDepend(REQUIRED)");
  aoc::package::ImportOptions opt;
  opt.dir = op;
  opt.out = tmp.path() / "pkg";
  const auto r = aoc::package::import_operator(opt, host_build());
  bool noted = false;
  for (const auto& n : r.notes) noted = noted || n.find("'y' is value-dependent (ValueDepend)") != std::string::npos;
  EXPECT_TRUE(noted);
}
