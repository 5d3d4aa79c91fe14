// aoc-asc-host: runs one single-file kernel program (built by `ascendopt asc`, docs/asc.md) inside
// the sandbox. Usage: aoc-asc-host PROGRAM.so REPORT SOC [ARGS...]. It loads the program, runs its
// main (renamed aoc_program_main by the build) with ARGS, and for every kernel launch appends one
// JSON line to REPORT: the kernel, its blockDim, whether it ran, the simulated Task Duration on
// SOC and the races the hazard checker found. Lines are written as launches finish, so the report
// keeps what ran before a crash. The exit status is the program's.
#include <dlfcn.h>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "aoc/launch.h"
#include "package/soc_platform.h"
#include "runtime/block_traces.h"
#include "runtime/program_launches.h"
#include "sim/engine.h"
#include "sim/hazards.h"
#include "sim/soc.h"

namespace {

using MainWithArgs = int (*)(int, char**);
using MainWithoutArgs = int (*)();

nlohmann::json describe(const aoc::sim::Soc& soc, const std::string& kernel, uint32_t block_dim,
                        const aoc::runtime::LaunchResult& run) {
  nlohmann::json j = {{"kernel", kernel}, {"block_dim", block_dim}, {"ok", run.ok}, {"error", run.error}};
  std::string printed;
  for (const auto& core : run.cores) printed += core.printed;
  j["printed"] = printed.substr(0, 4096);
  if (!run.ok) return j;
  std::vector<const aoc::Trace*> traces;
  for (const auto& core : run.cores) traces.push_back(&core.trace);
  j["hazards"] = nlohmann::json::array();
  for (const auto& h : aoc::sim::check_hazards(traces, 10)) j["hazards"].push_back(h.message());
  try {
    const aoc::sim::SimResult sim = aoc::sim::simulate(soc, aoc::runtime::block_traces(run.cores));
    j["task_duration_us"] = sim.task_duration_us;
  } catch (const std::exception& e) {
    j["sim_error"] = e.what();
  }
  return j;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: aoc-asc-host PROGRAM.so REPORT SOC [ARGS...]\n");
    return 2;
  }
  aoc::sim::Soc soc;
  try {
    soc = aoc::sim::load_soc(argv[3]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "[aoc] %s\n", e.what());
    return 2;
  }
  aoc::host::set_current_platform(aoc::package::platform_for(soc));
  FILE* report = std::fopen(argv[2], "w");
  if (report == nullptr) {
    std::fprintf(stderr, "[aoc] cannot write the report %s\n", argv[2]);
    return 2;
  }
  aoc::runtime::set_launch_observer([&](const std::string& kernel, uint32_t block_dim, const aoc::runtime::LaunchResult& run) {
    const std::string line = describe(soc, kernel, block_dim, run).dump() + "\n";
    std::fputs(line.c_str(), report);
    std::fflush(report);
  });
  void* program = dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL);
  if (program == nullptr) {
    std::fprintf(stderr, "[aoc] cannot load the program: %s\n", dlerror());
    return 2;
  }
  std::vector<char*> args{argv[1]};
  for (int i = 4; i < argc; ++i) args.push_back(argv[i]);
  args.push_back(nullptr);
  int status = 0;
  if (auto with_args = reinterpret_cast<MainWithArgs>(dlsym(program, "aoc_program_main")); with_args != nullptr) {
    status = with_args(static_cast<int>(args.size() - 1), args.data());
  } else if (auto with_const_args = reinterpret_cast<MainWithArgs>(dlsym(program, "_Z16aoc_program_mainiPPKc"));
             with_const_args != nullptr) {  // main(int, const char**)
    status = with_const_args(static_cast<int>(args.size() - 1), args.data());
  } else if (auto without = reinterpret_cast<MainWithoutArgs>(dlsym(program, "_Z16aoc_program_mainv"));
             without != nullptr) {
    status = without();
  } else {
    std::fprintf(stderr, "[aoc] the program has no main(int, char**) or main()\n");
    return 2;
  }
  std::fflush(stdout);
  std::fclose(report);
  return status;
}
