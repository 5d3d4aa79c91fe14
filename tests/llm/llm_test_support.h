// Shared setup of the LLM tests: the scripted server, scratch folders, client settings with
// short timeouts and backoff so failures are fast, the edits their scripted answers make, and
// the evaluation report and bank entry their prompts are built from.
#pragma once
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "bank/entry.h"
#include "chat_server.h"
#include "eval/candidate_eval.h"
#include "llm/llm_options.h"
#include "test_dirs.h"

namespace aoc::llm::testing {

inline LlmOptions fast_options(const std::string& base_url, const std::filesystem::path& cache_dir) {
  // Requests to the test server must not go through a proxy of the machine.
  ::setenv("NO_PROXY", "127.0.0.1,localhost", 1);
  ::setenv("no_proxy", "127.0.0.1,localhost", 1);
  LlmOptions o;
  o.base_url = base_url;
  o.model = "test-model";
  o.max_tokens = 512;
  o.connect_timeout_s = 2;
  o.timeout_s = 5;
  o.retries = 2;
  o.backoff_initial_s = 0.01;
  o.backoff_max_s = 0.05;
  o.cache_dir = cache_dir;
  return o;
}

// The settings file of the end-to-end tests (the endpoint comes from --llm-base-url): the key
// in variable `key_var`, answers cached in <folder of the file>/llm-cache, one retry, prices.
inline void write_config(const std::filesystem::path& file, const std::string& key_var) {
  std::ofstream(file) << "model = \"test-model\"\napi_key_env = \"" << key_var
                      << "\"\nmax_tokens = 2048\ntimeout = 5\nretries = 1\nbackoff_initial = 0.01\n"
                         "backoff_max = 0.02\ncache_dir = \"llm-cache\"\n"
                         "prompt_price_per_million = 1.0\ncompletion_price_per_million = 2.0\n";
}

// An evaluation report as the evaluator gives it, for the profile section.
inline aoc::eval::CandidateReport add_report() {
  aoc::eval::CandidateReport r;
  r.op = "add";
  r.soc = "Ascend910B1";
  r.verdict = aoc::eval::Verdict::Ok;
  aoc::eval::CaseResult c;
  c.name = "multi_tile_fp32";
  c.dtype = "float32";
  c.shapes = "x=[1000003] y=[1000003]";
  c.verdict = aoc::eval::Verdict::Ok;
  c.sim_us = 15.99;
  c.t_hw_us = 5.33;
  c.bound = "mte2";
  c.bound_pipe = "aiv_mte2_time";
  c.profile = {{"aiv_mte2_time", 7.5}, {"aiv_mte2_ratio", 0.91}, {"aiv_vec_time", 0.35}, {"aiv_vec_ratio", 0.04}};
  r.cases.push_back(c);
  return r;
}

// A positive entry as rewinding stores it (its diff removes double buffering from `op`'s
// kernel: BUFFER_NUM 2 -> 1), 1.066x on one case.
inline aoc::bank::Entry mined_entry(const std::string& op) {
  aoc::bank::Entry e;
  e.kind = aoc::bank::kPositive;
  e.motif = "double_buffer";
  e.op = op;
  e.source_path = "ops/" + op + "/expert";
  e.source_hash = "0123456789abcdef";
  e.diff = "--- a/op_kernel/" + op + ".cpp\n+++ b/op_kernel/" + op + ".cpp\n@@ -6 +6 @@\n" +
           "-constexpr int32_t BUFFER_NUM = 2;\n+constexpr int32_t BUFFER_NUM = 1;\n";
  e.cases = {{"aligned_2d_fp16", 2.12, 2.26}};
  e.geomean = 1.066;
  e.title = "double_buffer in " + op + " (worth 1.066x)";
  e.description = "queue depth 2 (copy-in, compute and copy-out overlap) <-> 1";
  e.bottleneck = "bound by aiv_mte2_time with the motif, aiv_mte2_time without";
  return e;
}

// An answer's SEARCH/REPLACE block on `file`.
inline std::string edit(const std::string& from, const std::string& to, const std::string& file = "op_kernel/add.cpp") {
  return file + "\n<<<<<<< SEARCH\n" + from + "\n=======\n" + to + "\n>>>>>>> REPLACE\n";
}

// The line of add's kernels (the package's and the expert's) that computes the sum.
inline const std::string kAddLine = "        AscendC::Add(zLocal, xLocal, yLocal, TileElems(progress));";

}  // namespace aoc::llm::testing

// The names every LLM test file uses; the tests live in aoc::llm.
namespace aoc::llm {
namespace fs = std::filesystem;
using testing::answer;
using testing::ChatServer;
using testing::edit;
using testing::kAddLine;
using testing::Reply;
using testing::ScratchDir;
}  // namespace aoc::llm
