// Every motif on small kernels (tests/data/rewrite/<motif>.<action>[_variant]/): input/ holds
// op_kernel/ (and op_host/) sources, expected/ the files the transformation must produce
// (or REFUSED with the expected refusal), `state` the detector's verdict on the input. The
// real aoc-rewrite program parses them with clang against include/ascendc, and the result
// must parse again.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "base/file_text.h"
#include "base/process.h"
#include "build/builder.h"
#include "rewrite/rewrite_tool.h"

namespace fs = std::filesystem;
using aoc::base::read_text;
using nlohmann::json;

namespace {

const fs::path kCases = fs::path(AOC_SOURCE_DIR) / "tests" / "data" / "rewrite";

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

std::vector<std::string> files_in(const fs::path& dir, const std::string& ext) {
  std::vector<std::string> out;
  if (!fs::is_directory(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ext) out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

struct ToolRun {
  int exit_code;
  json body;
};

// aoc-rewrite on the op_kernel/ + op_host/ folders under `src`.
ToolRun rewrite(const fs::path& src, const std::string& command, const std::string& motif) {
  const fs::path inc = fs::path(AOC_SOURCE_DIR) / "include" / "ascendc";
  const fs::path out = fs::temp_directory_path() / ("aoc-rewrite-test-" + std::to_string(::getpid()) + ".json");
  std::vector<std::string> argv = {aoc::rewrite::rewrite_tool_path().string(), command, "--root", src.string(),
                                   "--output", out.string()};
  if (!motif.empty()) argv.insert(argv.end(), {"--motif", motif});
  // With kernel_operator.h precompiled, as `ascendopt` runs it.
  argv.insert(argv.end(), {"--pch-dir", (aoc::build::default_builder_options().cache_dir / "rewrite-pch").string(),
                           "--pch-include", inc.string()});
  for (const auto& f : files_in(src / "op_kernel", ".cpp")) argv.insert(argv.end(), {"--kernel", f});
  for (const auto& f : files_in(src / "op_host", ".cpp")) argv.insert(argv.end(), {"--host", f});
  argv.insert(argv.end(), {"--kernel-args", "-I" + inc.string(), "-I" + (src / "op_kernel").string(),
                           "-I" + (src / "op_host").string(), "--host-args", "-I" + inc.string()});
  const auto r = aoc::base::run_process(argv);
  ToolRun run{r.exit_code, json::parse(read_text(out), nullptr, false)};
  fs::remove(out);
  return run;
}

std::vector<std::string> case_names() {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(kCases))
    if (e.is_directory()) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

class MotifFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(MotifFixture, TransformsAsExpected) {
  const fs::path dir = kCases / GetParam();
  const std::string name = GetParam();
  const std::string motif = name.substr(0, name.find('.'));
  std::string action = name.substr(name.find('.') + 1);
  action = action.substr(0, action.find('_'));
  ToolRun r = rewrite(dir / "input", action, motif);
  ASSERT_FALSE(r.body.is_discarded()) << "no JSON from aoc-rewrite";
  EXPECT_EQ(r.body.value("state", ""), trimmed(read_text(dir / "state")));
  if (fs::exists(dir / "expected" / "REFUSED")) {
    EXPECT_EQ(r.exit_code, 3) << r.body.dump(2);
    EXPECT_NE(r.body.value("refused", "").find(trimmed(read_text(dir / "expected" / "REFUSED"))), std::string::npos)
        << r.body.dump(2);
    return;
  }
  ASSERT_EQ(r.exit_code, 0) << r.body.dump(2);
  // Every expected file is produced exactly; nothing else changes.
  const json contents = r.body.at("contents");
  const fs::path input = fs::canonical(dir / "input");
  size_t expected_files = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir / "expected")) {
    if (!e.is_regular_file()) continue;
    ++expected_files;
    const std::string key = (input / e.path().lexically_relative(dir / "expected")).string();
    ASSERT_TRUE(contents.contains(key)) << key << " was not changed";
    EXPECT_EQ(contents.at(key).get<std::string>(), read_text(e.path())) << key;
  }
  EXPECT_EQ(contents.size(), expected_files);

  // The transformed sources parse again.
  const fs::path copy = fs::temp_directory_path() / ("aoc-rewrite-test-" + std::to_string(::getpid()));
  fs::remove_all(copy);
  fs::copy(dir / "input", copy, fs::copy_options::recursive);
  fs::copy(dir / "expected", copy, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  ToolRun again = rewrite(copy, "detect", motif);
  fs::remove_all(copy);
  EXPECT_EQ(again.exit_code, 0) << again.body.dump(2);
}

INSTANTIATE_TEST_SUITE_P(Cases, MotifFixture, ::testing::ValuesIn(case_names()),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (c == '.') c = '_';
                           return n;
                         });

// A source clang cannot parse: an error naming the header and line, never a crash.
TEST(RewriteTool, ParseErrorNamesFileAndLine) {
  const fs::path dir = fs::temp_directory_path() / ("aoc-rewrite-bad-" + std::to_string(::getpid()));
  fs::create_directories(dir / "op_kernel");
  std::ofstream(dir / "op_kernel" / "helpers.h") << "#pragma once\n#include \"kernel_operator.h\"\n\ninline int broken() { return 1 }\n";
  std::ofstream(dir / "op_kernel" / "k.cpp") << "#include \"helpers.h\"\nextern \"C\" void k() {}\n";
  ToolRun r = rewrite(dir, "detect", "");
  fs::remove_all(dir);
  EXPECT_EQ(r.exit_code, 1);
  const std::string err = r.body.value("error", "");
  EXPECT_NE(err.find("helpers.h:4"), std::string::npos) << err;
}

TEST(RewriteTool, UnknownMotifIsAUsageError) {
  ToolRun r = rewrite(kCases / "event_sync.remove" / "input", "apply", "no_such_motif");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.body.value("error", "").find("unknown motif no_such_motif"), std::string::npos);
}

}  // namespace
