// Shared setup of the LLM tests: the scripted server, scratch folders, client settings with
// short timeouts and backoff so failures are fast, and the edits their scripted answers make.
#pragma once
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "chat_server.h"
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
