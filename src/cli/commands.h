// Subcommands of the `ascendopt` program. Each adds itself to the app; the logic
// lives in the libraries (src/package, src/eval), these only parse, call and print.
#pragma once
#include <cstdint>
#include <exception>
#include <string>

#include <CLI/CLI.hpp>

namespace aoc::cli {

// Exit status of a subcommand, stored by its callback for main() to return.
int& exit_status();

// The per-case wall-clock limit option (--timeout) of the commands that evaluate candidates;
// zero or a negative number is refused with the option's name.
inline CLI::Option* add_case_timeout_option(CLI::App* cmd, double& seconds,
                                            const std::string& help = "Wall-clock limit per case, seconds") {
  const CLI::Validator positive(
      [](std::string& v) -> std::string {
        try {
          if (std::stod(v) > 0) return "";
        } catch (const std::exception&) {
        }
        return "must be a positive number of seconds, not " + v;
      },
      "SECONDS>0");
  return cmd->add_option("--timeout", seconds, help)->check(positive)->capture_default_str();
}

// The size options of a hidden draw (--cases hidden|all) of the commands that run cases.
inline void add_hidden_draw_options(CLI::App* cmd, int64_t& count, int64_t& max_elements) {
  cmd->add_option("--hidden-count", count, "Hidden cases drawn for --cases hidden|all (default: the package's [hidden] count)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--hidden-max-elements", max_elements,
                  "Cap on a hidden case's first-input elements, below the package's own (default: no extra cap)")
      ->check(CLI::NonNegativeNumber);
}

void add_run_command(CLI::App& app);
void add_ops_command(CLI::App& app);
void add_eval_command(CLI::App& app);
void add_calibrate_command(CLI::App& app);
void add_tune_command(CLI::App& app);  // tune and tune-bench
void add_llm_commands(CLI::App& app);  // llm-check and llm-propose
void add_motifs_command(CLI::App& app);
void add_rewrite_command(CLI::App& app);
void add_import_command(CLI::App& app);
void add_optimize_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_bank_command(CLI::App& app);  // bank list|show|export|import|query
void add_public_command(CLI::App& app);  // public export
void add_rewind_command(CLI::App& app);
void add_fuzz_command(CLI::App& app);
void add_asc_command(CLI::App& app);
void add_bank_query_command(CLI::App& bank);  // under `bank`

}  // namespace aoc::cli
