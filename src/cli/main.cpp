// ascendopt: run, check and optimise AscendC operators on any Linux machine.
#include <CLI/CLI.hpp>

#include <iostream>

#include "cli/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"ascendopt: run, check and optimise AscendC operators without an NPU"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "ascendopt 0.1.0");
  aoc::cli::add_run_command(app);
  aoc::cli::add_ops_command(app);
  aoc::cli::add_eval_command(app);
  aoc::cli::add_calibrate_command(app);
  aoc::cli::add_tune_command(app);
  aoc::cli::add_llm_commands(app);
  aoc::cli::add_motifs_command(app);
  aoc::cli::add_rewrite_command(app);
  aoc::cli::add_optimize_command(app);
  aoc::cli::add_bench_command(app);
  aoc::cli::add_import_command(app);
  aoc::cli::add_public_command(app);
  aoc::cli::add_bank_command(app);
  aoc::cli::add_rewind_command(app);
  aoc::cli::add_fuzz_command(app);
  aoc::cli::add_asc_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI11 prints the message (or the help); every usage error exits with 2, as documented.
    return app.exit(e) == 0 ? 0 : 2;
  } catch (const std::exception& e) {
    // What a command did not turn into its own message (a bad setting in the environment ...).
    std::cerr << "ascendopt: " << e.what() << "\n";
    return 1;
  }
  return aoc::cli::exit_status();
}
