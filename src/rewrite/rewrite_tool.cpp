#include "rewrite/rewrite_tool.h"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>

#include "base/file_text.h"
#include "base/process.h"
#include "build/builder.h"
#include "build/op_build.h"
#include "eval/api_use_check.h"
#include "package/op_package.h"
#include "rewrite/answer_cache.h"

namespace aoc::rewrite {
namespace fs = std::filesystem;

// One program rewrites and checks API use; the evaluator finds it.
fs::path rewrite_tool_path() { return aoc::eval::api_checker_path(); }

namespace {

std::atomic<uint64_t> g_runs{0};

// Runs the rewriter (its answer file added to argv) and keeps a real answer in the cache.
ToolAnswer run_and_keep(std::vector<std::string> argv, const AnswerCache& cache, const std::string& key, bool write) {
  ++g_runs;
  char tmpl[] = "/tmp/aoc-rewrite-XXXXXX";
  const int fd = ::mkstemp(tmpl);
  if (fd < 0) throw RewriteError("cannot create a temporary file for the rewriter's answer");
  ::close(fd);
  const fs::path answer = tmpl;
  // Right after the command: everything after --kernel-args / --host-args is a compiler flag.
  argv.insert(argv.begin() + 2, {"--output", answer.string()});
  const auto r = aoc::base::run_process(argv);
  const std::string text = base::read_text(answer);
  std::error_code ec;
  fs::remove(answer, ec);
  ToolAnswer out;
  out.exit_code = r.exit_code;
  out.body = nlohmann::json::parse(text, nullptr, false);
  if (out.body.is_discarded() || !out.body.is_object()) {
    throw RewriteError("aoc-rewrite gave no answer (exit status " + std::to_string(r.exit_code) +
                       "): " + r.output.substr(0, 2000));
  }
  if (r.exit_code != 0 && r.exit_code != 3)
    throw RewriteError(out.body.value("error", std::string("aoc-rewrite failed with exit status ") +
                                                   std::to_string(r.exit_code)));
  CachedAnswer keep{out.exit_code, out.body, {}};
  if (write && out.exit_code == 0)
    for (const auto& f : out.body.value("files", nlohmann::json::array())) {
      const std::string file = f.get<std::string>();
      keep.written.emplace_back(file, base::read_text(file));
    }
  cache.store(key, keep);
  return out;
}

}  // namespace

ToolAnswer run_rewrite_tool(const aoc::eval::Candidate& c, const aoc::build::SourceDirs& sources,
                            const std::string& command, const std::string& motif, bool write,
                            const std::vector<std::string>& options) {
  const fs::path tool = rewrite_tool_path();
  if (tool.empty() || ::access(tool.c_str(), X_OK) != 0)
    throw RewriteError("the source rewriter aoc-rewrite is missing (" + tool.string() +
                       "); build the aoc-rewrite target or point AOC_REWRITE at it");
  const aoc::build::BuilderOptions build = aoc::build::default_builder_options();
  const fs::path inc = build.root / "include" / "ascendc";
  std::vector<std::string> argv = {tool.string(), command};
  if (!motif.empty()) argv.insert(argv.end(), {"--motif", motif});
  argv.insert(argv.end(), options.begin(), options.end());
  if (write) argv.push_back("--write");
  argv.insert(argv.end(), {"--root", sources.kernel.string(), "--root", sources.host.string()});
  const auto kernels = package::cpp_files(sources.kernel);
  if (kernels.empty()) throw RewriteError("no kernel source (.cpp) in " + sources.kernel.string());
  for (const auto& f : kernels) argv.insert(argv.end(), {"--kernel", f.string()});
  for (const auto& f : package::host_cpp_files(sources.host)) argv.insert(argv.end(), {"--host", f.string()});
  // The kernel and host units' common headers parsed once into precompiled headers in the
  // build cache, as candidate builds do for kernel_operator.h (AOC_NO_PCH=1 turns all off).
  if (build.precompiled_headers)
    argv.insert(argv.end(), {"--pch-dir", (build.cache_dir / "rewrite-pch").string(), "--pch-include", inc.string()});
  // The same flags as the kernel build (src/build/op_build.cpp), for the first dtype variant.
  argv.insert(argv.end(), {"--kernel-args", "-I" + inc.string(), "-I" + sources.host.string(),
                           "-I" + sources.kernel.string()});
  for (const auto& m : aoc::build::dtype_macros(c.package, 0)) argv.push_back(m);
  for (const auto& h : package::kernel_tiling_headers(sources.host, c.package.name))
    argv.insert(argv.end(), {"-include", h.string()});
  argv.insert(argv.end(), {"--host-args", "-I" + inc.string(), "-I" + sources.host.string()});

  const AnswerCache cache(build.cache_dir / "rewrite-answers", {sources.kernel, sources.host});
  const std::string key = cache.key(tool, argv, inc);
  if (auto hit = cache.find(key)) {
    try {
      for (const auto& [file, text] : hit->written) base::write_text(file, text);
    } catch (const std::runtime_error& e) {
      throw RewriteError(e.what());
    }
    return {hit->exit_code, std::move(hit->body)};
  }
  return run_and_keep(argv, cache, key, write);
}

uint64_t rewrite_tool_runs() { return g_runs; }

}  // namespace aoc::rewrite
