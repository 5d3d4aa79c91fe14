// A package whose InferShape (op_host code the evaluator runs to learn output shapes)
// segfaults: the candidate gets verdict error naming InferShape and the signal, and the
// evaluating process goes on to evaluate the honest package.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "eval_test_support.h"

using namespace aoc::eval;
using namespace aoc::eval::testing;
namespace fs = std::filesystem;

namespace {

constexpr const char* kCase = "prime_1021_fp16";

fs::path reduce_sum() { return source_root() / "ops" / "reduction" / "reduce_sum"; }

// A copy of reduce_sum whose InferShape dereferences null first thing. It lives at a fixed
// place in the build tree, so the build cache serves every test process.
fs::path crashing_infer_shape_copy() {
  const fs::path dir = fs::read_symlink("/proc/self/exe").parent_path() / "hostile_packages" / "reduce_sum_segv_infer";
  if (fs::exists(dir)) return dir;
  const fs::path to = dir.string() + ".tmp" + std::to_string(::getpid());
  fs::create_directories(to);
  for (const char* part : {"op.toml", "golden.cpp", "op_host", "op_kernel"})
    fs::copy(reduce_sum() / part, to / part, fs::copy_options::recursive);
  const fs::path host = to / "op_host" / "reduce_sum.cpp";
  std::ifstream in(host);
  std::stringstream text;
  text << in.rdbuf();
  std::string src = text.str();
  const std::string head = "static graphStatus InferShape(gert::InferShapeContext* context)\n{";
  const size_t at = src.find(head);
  if (at == std::string::npos) return {};
  src.insert(at + head.size(), "\n    volatile int* nowhere = nullptr;\n    *nowhere = 1;");
  std::ofstream(host) << src;
  std::error_code ec;
  fs::rename(to, dir, ec);  // another test process may have won the race: its copy is the same
  if (ec) fs::remove_all(to);
  return dir;
}

TEST(HostileInferShape, SegfaultIsErrorAndTheEvaluatorGoesOn) {
  const fs::path hostile = crashing_infer_shape_copy();
  ASSERT_FALSE(hostile.empty()) << "reduce_sum's op_host no longer has the InferShape this test patches";
  CandidateEvalOptions o = test_options({kCase});
  o.soc = "";
  const CandidateReport bad = evaluate_dir(hostile, o);
  EXPECT_EQ(bad.verdict, Verdict::Error) << to_string(bad.verdict) << ": " << bad.message;
  EXPECT_NE(bad.message.find("InferShape"), std::string::npos) << bad.message;
  EXPECT_NE(bad.message.find("SIGSEGV"), std::string::npos) << bad.message;
  const CandidateReport good = evaluate_dir(reduce_sum(), o);
  EXPECT_EQ(good.verdict, Verdict::Ok) << good.message;
}

}  // namespace
