// `ascendopt asc`: single-file kernel programs (tests/data/asc) built for the CPU runtime and run in
// the sandbox: the program's output and exit status, each launch with its blockDim and simulated
// time; a failing launch reaches the program through aclrtSynchronizeStream and is reported at the
// program's own file and line; a race fails the run; bad input is a clear error.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "../cli_support.h"
#include "../scratch_dir.h"
#include "base/file_text.h"

namespace {

namespace fs = std::filesystem;
using aoc::testing::run_ascendopt;

const fs::path kData = fs::path(AOC_SOURCE_DIR) / "tests/data/asc";

nlohmann::json run_json(const fs::path& program, int expected_status) {
  const auto r = run_ascendopt("asc " + program.string() + " --json", false);
  EXPECT_EQ(r.status, expected_status) << r.out;
  return nlohmann::json::parse(r.out);
}

TEST(AscCommand, AStaticTensorProgramRunsAndItsLaunchIsTimed) {
  const nlohmann::json j = run_json(kData / "scale_add.asc", 0);
  EXPECT_TRUE(j["ok"].get<bool>());
  EXPECT_EQ(j["exit_code"], 0);
  EXPECT_NE(j["output"].get<std::string>().find("all 8192 elements right"), std::string::npos) << j.dump(2);
  ASSERT_EQ(j["launches"].size(), 1u);
  const auto& l = j["launches"][0];
  EXPECT_NE(l["kernel"].get<std::string>().find("scale_add<2048u>"), std::string::npos) << l.dump();
  EXPECT_EQ(l["block_dim"], 4);
  EXPECT_TRUE(l["ok"].get<bool>());
  EXPECT_GT(l["task_duration_us"].get<double>(), 0.0);
  EXPECT_TRUE(l["hazards"].empty());
}

TEST(AscCommand, EveryLaunchIsReportedAndAFailedOneReachesTheProgram) {
  const nlohmann::json ok = run_json(kData / "two_kernels.asc", 0);
  ASSERT_EQ(ok["launches"].size(), 2u);
  EXPECT_EQ(ok["launches"][0]["block_dim"], 8);
  EXPECT_EQ(ok["launches"][1]["block_dim"], 4);

  aoc::testing::ScratchDir tmp("asc");
  const fs::path overrun = tmp.path() / "overrun.asc";
  std::ofstream(overrun) << "#define OVERRUN_SECOND\n" << aoc::base::read_text(kData / "two_kernels.asc");
  const nlohmann::json bad = run_json(overrun, 2);  // main returns 2 when the second launch failed
  ASSERT_EQ(bad["launches"].size(), 2u);
  EXPECT_TRUE(bad["launches"][0]["ok"].get<bool>());
  EXPECT_FALSE(bad["launches"][1]["ok"].get<bool>());
  const std::string error = bad["launches"][1]["error"];
  EXPECT_NE(error.find(overrun.string() + ":"), std::string::npos) << error;  // the program's own file
  EXPECT_NE(error.find("out of bounds"), std::string::npos) << error;
  EXPECT_NE(bad["output"].get<std::string>().find("second launch failed"), std::string::npos) << bad.dump(2);
}

TEST(AscCommand, ARaceFailsTheRunEvenWhenTheProgramSaysItPassed) {
  aoc::testing::ScratchDir tmp("asc");
  std::string src = aoc::base::read_text(kData / "scale_add.asc");
  const std::string barrier = "    AscendC::PipeBarrier<PIPE_ALL>();\n    AscendC::Muls";
  ASSERT_NE(src.find(barrier), std::string::npos);
  src.replace(src.find(barrier), barrier.size(), "    AscendC::Muls");  // Muls reads x before the copy is known done
  const fs::path racy = tmp.path() / "racy.asc";
  std::ofstream(racy) << src;
  const nlohmann::json j = run_json(racy, 1);
  EXPECT_EQ(j["exit_code"], 0);  // the CPU runs the pipes in order: the numbers are right
  EXPECT_FALSE(j["ok"].get<bool>());
  ASSERT_EQ(j["launches"].size(), 1u);
  ASSERT_FALSE(j["launches"][0]["hazards"].empty());
  EXPECT_NE(j["launches"][0]["hazards"][0].get<std::string>().find("DataCopy"), std::string::npos);
}

TEST(AscCommand, BadInputIsAClearError) {
  auto missing = run_ascendopt("asc /nonexistent/p.asc");
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.out.find("is not a file"), std::string::npos) << missing.out;

  aoc::testing::ScratchDir tmp("asc");
  const fs::path broken = tmp.path() / "broken.asc";
  std::ofstream(broken) << "#include \"kernel_operator.h\"\nint main() { undefined_call(); return 0; }\n";
  auto r = run_ascendopt("asc " + broken.string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find(broken.string() + ":2:"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("aoc_program_main"), std::string::npos) << r.out;

  const fs::path unclosed = tmp.path() / "unclosed.asc";
  std::ofstream(unclosed) << "int main() {\n  k<<<1, nullptr, s(x);\n}\n";
  r = run_ascendopt("asc " + unclosed.string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("line 2: a launch `<<<` without its closing `>>>`"), std::string::npos) << r.out;
}

}  // namespace

namespace {

TEST(AscCommand, DefinesAndAWorkingFolderWithTheProgramsFiles) {
  aoc::testing::ScratchDir tmp("asc");
  const fs::path program = tmp.path() / "io.asc";
  std::ofstream(program) << "#include <cstdio>\n#include \"acl/acl.h\"\n"
                            "int main() {\n"
                            "  int v = 0;\n"
                            "  FILE* in = std::fopen(\"input/value.txt\", \"r\");\n"
                            "  if (in == nullptr || std::fscanf(in, \"%d\", &v) != 1) return 5;\n"
                            "  std::fclose(in);\n"
                            "  FILE* out = std::fopen(\"output/result.txt\", \"w\");\n"
                            "  if (out == nullptr) return 6;\n"
                            "  std::fprintf(out, \"%d\\n\", v * SCALE);\n"
                            "  std::fclose(out);\n"
                            "  return 0;\n"
                            "}\n";
  const fs::path work = tmp.path() / "run";
  fs::create_directories(work / "input");
  fs::create_directories(work / "output");
  std::ofstream(work / "input" / "value.txt") << "14\n";
  const auto r = run_ascendopt("asc " + program.string() + " -D SCALE=3 --workdir " + work.string());
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(aoc::base::read_text(work / "output" / "result.txt"), "42\n");
  EXPECT_FALSE(fs::exists(work / ".aoc-launches.jsonl"));  // the report file is the command's, not left behind
  const auto missing = run_ascendopt("asc " + program.string() + " -D SCALE=3 --workdir " + (tmp.path() / "nope").string());
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.out.find("is not a folder"), std::string::npos) << missing.out;
}

}  // namespace
