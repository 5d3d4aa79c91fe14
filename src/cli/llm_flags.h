// The --llm-* options shared by every subcommand that talks to a model: a settings file
// (--llm-config) and flags that override single settings (docs/llm.md).
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "llm/llm_options.h"

namespace aoc::cli {

struct LlmFlags {
  std::string config;
  std::string base_url, model, api_key_env;
  std::optional<double> temperature, timeout;
  std::optional<int64_t> max_tokens;
  std::optional<int> retries, concurrency;
  std::optional<uint64_t> seed;
  bool replay = false;
  bool no_cache = false;

  // True when the flags ask for a model at all (a settings file, an endpoint or a model name).
  bool wanted() const { return !config.empty() || !base_url.empty() || !model.empty(); }
  // True when any --llm-* flag was given.
  bool any() const {
    return wanted() || !api_key_env.empty() || temperature || timeout || max_tokens || retries || concurrency || seed ||
           replay || no_cache;
  }
};

void add_llm_flags(CLI::App* cmd, LlmFlags& f);

// The flags again as command-line words, for a task that runs the same command on one unit.
std::vector<std::string> llm_flag_args(const LlmFlags& f);

// The settings: defaults, then the file, then the flags; the cache folder defaults to
// <cache_root>/llm. Throws aoc::llm::LlmError(Config) saying what to fix.
aoc::llm::LlmOptions resolve_llm_options(const LlmFlags& f, const std::filesystem::path& cache_root);

}  // namespace aoc::cli
