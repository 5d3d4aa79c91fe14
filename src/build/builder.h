// Compiles C++ sources into a shared object with a content-addressed cache: the key
// hashes the sources, every file of the folders they live in, the flags, the
// compiler identity and the header tree of include/ascendc, so a repeated build is
// a lookup. Failed builds are cached too (a broken candidate costs nothing twice).
// The translation units of a build compile in parallel, and build_all runs several builds at
// once (a candidate's dtype variants and its goldens); at most `jobs` compiler processes run
// at a time per Builder. Relocatable units (op_host) also come from a cache of objects, so a
// kernel-only change compiles one unit per variant.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/process.h"
#include "build/diagnostics.h"
#include "build/object_cache.h"
#include "build/request.h"

namespace aoc::build {

struct BuildResult {
  bool ok = false;
  bool cache_hit = false;
  std::filesystem::path library;       // the .so (valid when ok)
  std::vector<Diagnostic> diagnostics;  // parsed compiler output (errors and warnings)
  std::string log;                      // raw compiler output
  std::string key;
  double seconds = 0.0;
  size_t objects_reused = 0;  // relocatable units taken from the object cache
  std::string isolation;      // how the compiler ran (SandboxResult::isolation); "" when nothing compiled
  // The build's source folders as the compiler saw them (staged copies) and the requester's
  // folders they stand for: messages of the built code (__FILE__) name the copies.
  std::vector<std::string> staged_dirs, source_dirs;

  // First error as "file:line: message", for one-line reports.
  std::string first_error() const;
};

struct BuilderOptions {
  std::filesystem::path root;       // project source root (include/ascendc, src/package)
  std::filesystem::path cache_dir;
  // Read-only caches searched before cache_dir for libraries and objects (base/paths.h,
  // $AOC_SHARED_CACHE); a library's key does not depend on the folder of the cache it is in.
  std::vector<std::filesystem::path> shared_caches;
  std::string compiler = "g++";
  std::vector<std::string> base_flags = {"-std=c++20", "-O2", "-fPIC", "-w"};
  bool precompiled_headers = true;  // honour CompileUnit::precompiled ($AOC_NO_PCH=1 turns it off)
  size_t jobs = 0;                  // compiler processes at once; 0: the number of hardware threads
  // Run the compiler in the sandbox (build/compiler_sandbox.h). Off only for trusted sources and
  // tests whose stand-in compilers write outside their output folder.
  bool sandbox = true;
};

// Defaults: root from $AOC_ROOT or the configured source dir; cache from
// $AOC_CACHE_DIR, else <build>/cache, else $XDG_CACHE_HOME/ascendopt; shared caches from
// $AOC_SHARED_CACHE.
BuilderOptions default_builder_options();

class Builder {
 public:
  explicit Builder(BuilderOptions opts);
  BuildResult build(const BuildRequest& req);
  // The requests built at the same time; results in request order, each as build() gives it.
  std::vector<BuildResult> build_all(const std::vector<BuildRequest>& reqs);
  const BuilderOptions& options() const { return opts_; }
  // Number of compiler processes this builder started (tests check cache hits with it).
  uint64_t compiler_runs() const { return compiler_runs_; }
  std::string cache_key(const BuildRequest& req) const;
  // The object cache key of a relocatable unit of `req`.
  std::string object_key(const BuildRequest& req, const CompileUnit& unit) const;

 private:
  // Flags that force-include the precompiled `header` (building it on first use), or
  // none when it cannot be built (the unit then compiles the header itself).
  std::vector<std::string> precompiled_flags(const std::filesystem::path& header, const std::vector<std::string>& flags,
                                             const std::vector<std::string>& header_flags,
                                             const std::vector<std::filesystem::path>& view, std::string& log);
  // The compiler command of unit `i` of `req`, writing `object` (and `depfile` when not empty).
  std::vector<std::string> compile_command(const BuildRequest& req, size_t i, const std::string& object,
                                           const std::string& depfile, const std::vector<std::filesystem::path>& view,
                                           std::string& log);

  // Runs one compiler process in the sandbox when a slot is free (at most opts_.jobs at once):
  // it reads the system, toolchain and `readable` folders and writes only in `workdir`.
  base::ProcessResult run_compiler(const std::vector<std::string>& argv, const std::filesystem::path& workdir,
                             const std::vector<std::filesystem::path>& readable, std::string* isolation = nullptr);
  // The folders a compile of `req` reads: its sources, -I and -include folders, read_dirs, the
  // AscendC headers and the precompiled headers.
  std::vector<std::filesystem::path> compiler_view(const BuildRequest& req) const;
  // `log` without what the compiler said about files outside `view` (build/foreign_lines.h).
  std::string withhold_foreign(const std::string& log, const std::vector<std::filesystem::path>& view,
                               const std::filesystem::path& workdir) const;

  // The lock held while the relocatable object of `key` is looked up and compiled.
  std::shared_ptr<std::mutex> object_lock(const std::string& key);

  BuilderOptions opts_;
  std::mutex object_locks_mu_;
  std::map<std::string, std::shared_ptr<std::mutex>> object_locks_;
  std::mutex pch_mu_;  // held while a precompiled header is built
  std::mutex slots_mu_;
  std::condition_variable slots_cv_;
  size_t slots_free_ = 0;
  std::string compiler_id_;
  std::string header_hash_;
  ObjectCache objects_;
  std::atomic<uint64_t> compiler_runs_{0};
};

}  // namespace aoc::build
