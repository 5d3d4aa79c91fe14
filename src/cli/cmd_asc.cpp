// `ascendopt asc PROGRAM.asc [-- ARGS...]`: build a single-file kernel program (kernels, host code
// with AscendCL calls and main in one file, launches in `<<<...>>>` syntax) for the CPU runtime,
// run it in the sandbox, and report its output, exit status and every kernel launch with its
// simulated Task Duration and races (docs/asc.md).
#include <unistd.h>

#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/content_hash.h"
#include "base/file_text.h"
#include "base/sandbox.h"
#include "base/text_edit.h"
#include "build/builder.h"
#include "build/program_build.h"
#include "build/program_source.h"
#include "cli/commands.h"

namespace aoc::cli {

namespace {
namespace fs = std::filesystem;
using aoc::base::replace_all;

struct AscArgs {
  std::string file;
  std::vector<std::string> program_args;
  std::vector<std::string> defines;
  std::string workdir;
  std::string soc = "Ascend910B1";
  std::string cache_dir;
  double timeout = aoc::base::kDefaultCaseSeconds;
  bool json = false;
};

std::vector<nlohmann::json> read_launches(const fs::path& report) {
  std::vector<nlohmann::json> out;
  std::istringstream lines(aoc::base::read_text(report));
  for (std::string line; std::getline(lines, line);) {
    try {
      out.push_back(nlohmann::json::parse(line));
    } catch (const std::exception&) {
      break;  // a line cut short by a crash
    }
  }
  return out;
}

void print_launches(std::ostream& os, const std::vector<nlohmann::json>& launches) {
  os << "launches: " << launches.size() << "\n";
  for (size_t i = 0; i < launches.size(); ++i) {
    const auto& l = launches[i];
    os << "  " << std::setw(2) << i + 1 << "  " << l.value("kernel", "?") << "  blockDim " << l.value("block_dim", 0);
    if (!l.value("ok", false)) {
      os << "  FAILED: " << l.value("error", "") << "\n";
      continue;
    }
    if (l.contains("task_duration_us"))
      os << "  " << std::fixed << std::setprecision(2) << l["task_duration_us"].get<double>() << " us simulated";
    if (l.contains("sim_error")) os << "  (not timed: " << l["sim_error"].get<std::string>() << ")";
    os << "\n";
    for (const auto& h : l.value("hazards", nlohmann::json::array())) os << "      race: " << h.get<std::string>() << "\n";
  }
}

int run_asc(const AscArgs& a) {
  const fs::path file = fs::weakly_canonical(fs::absolute(a.file));
  if (!fs::is_regular_file(file)) {
    std::cerr << "error: " << a.file << " is not a file; give a single-file kernel program (.asc or .cpp)\n";
    return 2;
  }
  const std::string original = aoc::base::read_text(file);
  const aoc::build::ProgramSource src = aoc::build::rewrite_launches(original);
  if (!src.error.empty()) {
    std::cerr << "error: " << file.string() << ": " << src.error << "\n";
    return 2;
  }
  aoc::build::BuilderOptions bo = aoc::build::default_builder_options();
  if (!a.cache_dir.empty()) bo.cache_dir = a.cache_dir;
  // The rewritten program in a folder of its own, named by its content.
  aoc::base::ContentHash h;
  h.add(src.text);
  const fs::path staged_dir = bo.cache_dir / "programs" / h.hex().substr(0, 16);
  const fs::path staged = staged_dir / (file.stem().string() + ".cpp");
  fs::create_directories(staged_dir);
  aoc::base::write_text(staged, src.text);

  aoc::build::Builder builder(bo);
  aoc::build::BuildRequest request = aoc::build::program_build_request(staged, bo.root, file.parent_path());
  for (const auto& d : a.defines) request.flags.push_back("-D" + d);
  const aoc::build::BuildResult built = builder.build(request);
  auto own_paths = [&](std::string text) {
    for (const auto& d : built.staged_dirs) text = replace_all(text, d + "/" + staged.filename().string(), file.string());
    return replace_all(text, staged.string(), file.string());
  };
  if (!built.ok) {
    std::cerr << "error: " << file.string() << " does not build for the CPU runtime:\n"
              << replace_all(own_paths(built.log), aoc::build::kProgramMain, "main") << "\n";
    return 2;
  }

  // The program's working folder: the one given (its input files, its outputs), else a fresh one.
  const bool own_work = a.workdir.empty();
  const fs::path work = own_work ? fs::temp_directory_path() / ("aoc-asc-" + std::to_string(::getpid())) : fs::absolute(a.workdir);
  if (own_work) {
    fs::remove_all(work);
    fs::create_directories(work);
  } else if (!fs::is_directory(work)) {
    std::cerr << "error: --workdir " << a.workdir << " is not a folder\n";
    return 2;
  }
  const fs::path report = work / ".aoc-launches.jsonl";
  std::vector<std::string> argv = {AOC_ASC_HOST_PATH, built.library.string(), report.string(), a.soc};
  argv.insert(argv.end(), a.program_args.begin(), a.program_args.end());
  aoc::base::SandboxLimits limits;
  aoc::base::set_case_time_limit(limits, a.timeout);
  limits.readable = {built.library, bo.root / "socs"};
  aoc::base::SandboxResult run = aoc::base::run_sandboxed(argv, work, limits);
  std::vector<nlohmann::json> launches = read_launches(report);
  if (own_work) fs::remove_all(work);
  else fs::remove(report);
  // Messages name the program's own file (the staged copy keeps its lines).
  run.output = own_paths(run.output);
  for (auto& l : launches)
    if (l.contains("error")) l["error"] = own_paths(l["error"].get<std::string>());

  std::string outcome = "exited";
  int status = run.exit_code;
  if (!run.started) outcome = "not started: " + run.start_error;
  else if (run.timed_out) outcome = "timed out after " + std::to_string(static_cast<int>(a.timeout)) + " s";
  else if (run.signal != 0) outcome = "killed by " + aoc::base::signal_description(run.signal);
  if (!run.exited) status = 1;
  bool launches_ok = true;
  for (const auto& l : launches)
    launches_ok = launches_ok && l.value("ok", false) && l.value("hazards", nlohmann::json::array()).empty();

  if (a.json) {
    nlohmann::json j = {{"program", file.string()}, {"soc", a.soc},       {"outcome", outcome},
                        {"exit_code", run.exited ? nlohmann::json(run.exit_code) : nlohmann::json(nullptr)},
                        {"output", run.output}, {"launches", launches}, {"ok", run.exited && run.exit_code == 0 && launches_ok},
                        {"isolation", run.isolation}};
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << run.output;
    if (!run.output.empty() && run.output.back() != '\n') std::cout << "\n";
    std::cout << "--\n" << file.filename().string() << ": " << outcome;
    if (run.exited) std::cout << " with status " << run.exit_code;
    std::cout << " (" << src.launches << " launch site" << (src.launches == 1 ? "" : "s") << ", soc " << a.soc << ")\n";
    print_launches(std::cout, launches);
  }
  if (status == 0 && !launches_ok) status = 1;
  return status;
}

}  // namespace

void add_asc_command(CLI::App& app) {
  auto args = std::make_shared<AscArgs>();
  CLI::App* cmd = app.add_subcommand(
      "asc", "Build and run a single-file kernel program (kernels, AscendCL host code and main; launches written "
             "kernel<<<blockDim, l2ctrl, stream>>>(...)) on the CPU runtime; report each launch's simulated time and "
             "races (see docs/asc.md)");
  cmd->add_option("PROGRAM", args->file, "The program's source (.asc or .cpp)")->required();
  cmd->add_option("ARGS", args->program_args, "Arguments for the program's main (after --)");
  cmd->add_option("--soc", args->soc, "SoC model for timing and the platform the program sees")->capture_default_str();
  cmd->add_option("-D,--define", args->defines, "Preprocessor definition NAME or NAME=VALUE for the build (repeatable)");
  cmd->add_option("--workdir", args->workdir,
                  "The program's working folder: where it reads its input files and writes its outputs "
                  "(default: a fresh empty folder)");
  cmd->add_option("--cache-dir", args->cache_dir, "Build cache folder (default: <build>/cache or $AOC_CACHE_DIR)");
  add_case_timeout_option(cmd, args->timeout, "Wall-clock limit of the program, seconds");
  cmd->add_flag("--json", args->json, "Print the report as JSON");
  cmd->callback([args]() { exit_status() = run_asc(*args); });
}

}  // namespace aoc::cli
