// Shared setup of the LLM tests: the scripted server, scratch folders, and client
// settings with short timeouts and backoff so failures are fast.
#pragma once
#include <cstdlib>
#include <filesystem>
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

}  // namespace aoc::llm::testing
