#include "build/builder.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "base/content_hash.h"
#include "base/file_text.h"
#include "base/paths.h"
#include "base/process.h"
#include "base/published_file.h"
#include "build/compiler_identity.h"
#include "build/compiler_sandbox.h"
#include "build/foreign_lines.h"
#include "build/header_hash.h"
#include "build/staged_sources.h"

namespace aoc::build {
namespace fs = std::filesystem;

std::string BuildResult::first_error() const {
  for (const auto& d : diagnostics)
    if (d.severity == "error" || d.severity == "fatal error" || d.severity == "linker") return to_string(d);
  if (!log.empty()) return log.substr(0, log.find('\n'));
  return "build failed";
}

BuilderOptions default_builder_options() {
  BuilderOptions o;
  o.root = base::repo_root();
  o.cache_dir = base::cache_dir();
  o.shared_caches = base::shared_caches();
  if (const char* cxx = std::getenv("AOC_CXX"); cxx != nullptr && *cxx) o.compiler = cxx;
  if (const char* no = std::getenv("AOC_NO_PCH"); no != nullptr && std::string(no) == "1") o.precompiled_headers = false;
  // The optimisation level of candidate, golden and program builds. Simulated times and
  // results do not depend on it (the timing comes from the instruction trace), only how long
  // compiling and the functional run take: the tests compile hundreds of kernels and run them
  // on small cases, so they build at -O1 (tests/CMakeLists.txt).
  if (const char* level = std::getenv("AOC_KERNEL_OPT"); level != nullptr && *level) {
    static const std::set<std::string> kLevels = {"-O0", "-O1", "-O2", "-O3", "-Os", "-Og"};
    if (!kLevels.count(level))
      throw std::invalid_argument(std::string("AOC_KERNEL_OPT=") + level + " is not an optimisation level (-O0, -O1, -O2, -O3, -Os or -Og)");
    std::replace(o.base_flags.begin(), o.base_flags.end(), std::string("-O2"), std::string(level));
  }
  return o;
}

namespace {

std::vector<fs::path> shared_object_dirs(const std::vector<fs::path>& shared) {
  std::vector<fs::path> dirs;
  for (const auto& s : shared) dirs.push_back(fs::absolute(s) / "objects");
  return dirs;
}

}  // namespace

Builder::Builder(BuilderOptions opts)
    : opts_(std::move(opts)),
      objects_(fs::absolute(opts_.cache_dir) / "objects", shared_object_dirs(opts_.shared_caches)) {
  // The compiler runs in a folder of its own (the sandbox's output folder): every path it is
  // given must be absolute.
  opts_.root = fs::absolute(opts_.root);
  opts_.cache_dir = fs::absolute(opts_.cache_dir);
  slots_free_ = opts_.jobs != 0 ? opts_.jobs : std::max(1u, std::thread::hardware_concurrency());
  // The compiler's identity: its version and target; a different g++ is a different key.
  compiler_id_ = opts_.compiler + "\n" + compiler_identity(opts_.compiler, opts_.cache_dir);
  header_hash_ = ascendc_header_hash(opts_.root);
}

std::string Builder::cache_key(const BuildRequest& req) const {
  base::ContentHash h;
  // The source folders (the staged copies, under the cache) are written as placeholders, so a
  // cache read from another folder (a shared cache) answers the same key; their content is
  // hashed below.
  h.add("aoc-build-v2").add(compiler_id_).add(header_hash_);
  for (const auto& f : opts_.base_flags) h.add(f);
  for (const auto& f : req.flags) h.add(relocated(f, req.hash_dirs));
  for (const auto& u : req.units) {
    h.add(u.source.filename().string()).add_file(u.source);
    for (const auto& f : u.flags) h.add(relocated(f, req.hash_dirs));
    for (const auto& f : u.header_flags) h.add(relocated(f, req.hash_dirs));
    h.add(relocated(u.precompiled.string(), req.hash_dirs));
  }
  for (const auto& f : req.hash_files) h.add(f.filename().string()).add_file(f);
  for (const auto& d : req.hash_dirs) {
    if (fs::is_directory(d)) h.add(base::tree_hash(d));
  }
  return h.hex();
}

std::string Builder::object_key(const BuildRequest& req, const CompileUnit& u) const {
  base::ContentHash h;
  h.add("aoc-object-v1").add(compiler_id_).add(header_hash_);
  for (const auto& f : opts_.base_flags) h.add(f);
  for (const auto& f : req.flags) h.add(relocated(f, req.hash_dirs));
  for (const auto& f : u.flags) h.add(relocated(f, req.hash_dirs));
  for (const auto& f : u.header_flags) h.add(relocated(f, req.hash_dirs));
  h.add(relocated(u.precompiled.string(), req.hash_dirs));
  h.add(u.source.filename().string()).add_file(u.source);
  // Every file of the unit's folder: the headers it may include from there.
  h.add(base::tree_hash(u.source.parent_path()));
  return h.hex();
}

std::vector<fs::path> Builder::compiler_view(const BuildRequest& req) const {
  std::vector<fs::path> view = {opts_.root / "include" / "ascendc", opts_.cache_dir / "pch"};
  auto from_flags = [&](const std::vector<std::string>& flags) {
    for (size_t i = 0; i < flags.size(); ++i) {
      if (flags[i].size() > 2 && flags[i].rfind("-I", 0) == 0) view.emplace_back(flags[i].substr(2));
      if (flags[i] == "-include" && i + 1 < flags.size()) view.push_back(fs::path(flags[i + 1]).parent_path());
    }
  };
  from_flags(req.flags);
  for (const auto& u : req.units) {
    view.push_back(fs::absolute(u.source).parent_path());
    if (!u.precompiled.empty()) view.push_back(u.precompiled.parent_path());
    from_flags(u.flags);
    from_flags(u.header_flags);
  }
  view.insert(view.end(), req.hash_dirs.begin(), req.hash_dirs.end());
  view.insert(view.end(), req.read_dirs.begin(), req.read_dirs.end());
  for (const auto& f : req.hash_files) view.push_back(fs::absolute(f).parent_path());
  for (auto& v : view) v = fs::absolute(v).lexically_normal();
  std::sort(view.begin(), view.end());
  view.erase(std::unique(view.begin(), view.end()), view.end());
  return view;
}

std::string Builder::withhold_foreign(const std::string& log, const std::vector<fs::path>& view,
                                      const fs::path& workdir) const {
  // The system folders are what the sandbox shows besides the view: system headers may be quoted.
  std::vector<fs::path> folders = {"/usr", "/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin", workdir};
  folders.insert(folders.end(), view.begin(), view.end());
  for (const auto& v : view) {
    std::error_code ec;
    const fs::path real = fs::canonical(v, ec);  // the compiler names files by the paths it resolved too
    if (!ec) folders.push_back(real);
  }
  return withhold_foreign_lines(log, folders);
}

base::ProcessResult Builder::run_compiler(const std::vector<std::string>& argv, const fs::path& workdir,
                                    const std::vector<fs::path>& readable, std::string* isolation) {
  {
    std::unique_lock lock(slots_mu_);
    slots_cv_.wait(lock, [this] { return slots_free_ > 0; });
    --slots_free_;
  }
  ++compiler_runs_;
  CompilerRun run;
  if (opts_.sandbox) {
    run = run_compiler_sandboxed(argv, workdir, readable);
  } else {
    run.result = base::run_process(argv);
    run.isolation = "none (BuilderOptions::sandbox off)";
  }
  base::ProcessResult pr = std::move(run.result);
  pr.output = withhold_foreign(pr.output, readable, workdir);
  if (isolation != nullptr) *isolation = run.isolation;
  {
    std::lock_guard lock(slots_mu_);
    ++slots_free_;
  }
  slots_cv_.notify_one();
  return pr;
}

std::shared_ptr<std::mutex> Builder::object_lock(const std::string& key) {
  std::lock_guard lock(object_locks_mu_);
  std::shared_ptr<std::mutex>& m = object_locks_[key];
  if (!m) m = std::make_shared<std::mutex>();
  return m;
}

std::vector<BuildResult> Builder::build_all(const std::vector<BuildRequest>& reqs) {
  std::vector<BuildResult> out(reqs.size());
  std::vector<std::exception_ptr> errors(reqs.size());
  auto one = [&](size_t i) {
    try {
      out[i] = build(reqs[i]);
    } catch (...) {
      errors[i] = std::current_exception();
    }
  };
  std::vector<std::thread> builds;
  for (size_t i = 1; i < reqs.size(); ++i) builds.emplace_back(one, i);
  if (!reqs.empty()) one(0);
  for (auto& t : builds) t.join();
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  return out;
}

std::vector<std::string> Builder::precompiled_flags(const fs::path& header, const std::vector<std::string>& flags,
                                                    const std::vector<std::string>& header_flags,
                                                    const std::vector<fs::path>& view, std::string& log) {
  if (!opts_.precompiled_headers || header.empty()) return {};
  // Only the flags that shape the header (-std, -O, -f, -I) key the PCH; per-variant
  // -D macros do not appear in it, so one PCH serves every dtype variant.
  std::vector<std::string> pch_flags = opts_.base_flags;
  for (const auto& f : flags)
    if (f.rfind("-I", 0) == 0 && f.find("include") != std::string::npos) pch_flags.push_back(f);
  pch_flags.insert(pch_flags.end(), header_flags.begin(), header_flags.end());
  base::ContentHash h;
  h.add("aoc-pch-v1").add(compiler_id_).add(header_hash_).add(header.string());
  for (const auto& f : pch_flags) h.add(f);
  const fs::path dir = opts_.cache_dir / "pch" / h.hex();
  const fs::path stub = dir / header.filename();
  const fs::path gch = fs::path(stub.string() + ".gch");
  // One thread builds a missing header while the others of this process wait for it.
  std::unique_lock pch_lock(pch_mu_, std::defer_lock);
  if (!fs::exists(gch)) pch_lock.lock();
  if (!fs::exists(gch)) {
    // The stub includes the real header, so a stale or refused PCH falls back to it. Another
    // process may build the same header at the same time: each publishes a whole file.
    base::publish_text(stub, "#include \"" + header.string() + "\"\n");
    const bool built = base::publish(gch, [&](const fs::path& tmp_gch) {
      // The sandboxed compiler writes only in a private folder: the header is moved out of it.
      std::string work = (dir / "build.XXXXXX").string();
      if (mkdtemp(work.data()) == nullptr) {
        log += "precompiled header not built (cannot create a folder in " + dir.string() + "), compiling without it\n";
        return false;
      }
      std::vector<std::string> argv = {opts_.compiler};
      argv.insert(argv.end(), pch_flags.begin(), pch_flags.end());
      const fs::path out = fs::path(work) / "header.gch";
      argv.insert(argv.end(), {"-x", "c++-header", stub.string(), "-o", out.string()});
      const base::ProcessResult pr = run_compiler(argv, work, view);
      std::error_code ec;
      if (pr.exit_code == 0) fs::rename(out, tmp_gch, ec);
      fs::remove_all(work, ec);
      if (pr.exit_code != 0) log += "precompiled header not built, compiling without it:\n" + pr.output;
      return pr.exit_code == 0 && fs::exists(tmp_gch);
    });
    if (!built) return {};
  }
  return {"-include", stub.string()};
}

std::vector<std::string> Builder::compile_command(const BuildRequest& req, size_t i, const std::string& object,
                                                  const std::string& depfile, const std::vector<fs::path>& view,
                                                  std::string& log) {
  const CompileUnit& u = req.units[i];
  std::vector<std::string> argv = {opts_.compiler};
  argv.insert(argv.end(), opts_.base_flags.begin(), opts_.base_flags.end());
  const auto pch = precompiled_flags(u.precompiled, req.flags, u.header_flags, view, log);
  argv.insert(argv.end(), pch.begin(), pch.end());
  argv.insert(argv.end(), u.header_flags.begin(), u.header_flags.end());
  argv.insert(argv.end(), req.flags.begin(), req.flags.end());
  argv.insert(argv.end(), u.flags.begin(), u.flags.end());
  if (u.relocatable) {
    const auto reloc = relocation_flags(req.hash_dirs);
    argv.insert(argv.end(), reloc.begin(), reloc.end());
  }
  if (!depfile.empty()) argv.insert(argv.end(), {"-MMD", "-MF", depfile});
  argv.insert(argv.end(), {"-c", fs::absolute(u.source).string(), "-o", object});
  return argv;
}

BuildResult Builder::build(const BuildRequest& requested) {
  const auto t0 = std::chrono::steady_clock::now();
  BuildResult r;
  auto finish = [&]() {
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
  };
  StagedSources staged;
  try {
    staged = stage_sources(requested, opts_.cache_dir);
  } catch (const std::exception& e) {
    r.log = e.what();
    return finish();
  }
  const BuildRequest& req = staged.request;
  r.staged_dirs = staged.staged;
  r.source_dirs = staged.original;
  r.key = cache_key(req);
  const fs::path dir = opts_.cache_dir / r.key.substr(0, 2);
  const fs::path so = dir / (r.key + ".so");
  const fs::path fail = dir / (r.key + ".fail");
  // The shared caches first, then this one.
  std::vector<fs::path> caches = opts_.shared_caches;
  caches.push_back(opts_.cache_dir);
  for (const auto& cache : caches) {
    const fs::path in = fs::absolute(cache) / r.key.substr(0, 2);
    if (fs::exists(in / (r.key + ".so"))) {
      r.ok = r.cache_hit = true;
      r.library = in / (r.key + ".so");
      return finish();
    }
    if (fs::exists(in / (r.key + ".fail"))) {
      r.cache_hit = true;
      // The log names the staged copies in the cache that stored it: written as this cache's
      // copies (same content, same names below sources/), then as the requester's folders.
      // Withheld again: a failure stored by an older build, or by a compiler outside the
      // sandbox, may quote what the compiler should not have read.
      const std::string log = substitute_folders(base::read_text(in / (r.key + ".fail")),
                                                 {(fs::absolute(cache) / "sources").string()},
                                                 {(opts_.cache_dir / "sources").string()});
      r.log = staged.unstage(withhold_foreign(log, compiler_view(req), dir));
      r.diagnostics = parse_diagnostics(r.log);
      return finish();
    }
  }
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    r.log = "cannot create cache directory " + dir.string() + ": " + ec.message() +
            " (set --cache-dir or AOC_CACHE_DIR to a writable folder)";
    return finish();
  }
  // Build in a private temporary folder, then publish with an atomic rename, so
  // concurrent builders never see a half-written library.
  std::string tmpl = (dir / (r.key + ".tmp.XXXXXX")).string();
  if (mkdtemp(tmpl.data()) == nullptr) {
    r.log = "cannot create a temporary folder in " + dir.string();
    return finish();
  }
  const fs::path tmp(tmpl);
  // Each unit: from the object cache, or compiled; the compilations run in parallel.
  struct Unit {
    std::string object, log, isolation;
    int exit_code = 0;
  };
  const std::vector<fs::path> view = compiler_view(req);
  // A precompiled header in the cache is keyed by the headers and flags the object key covers too.
  const std::vector<fs::path> cacheable_deps_root = {opts_.root / "include" / "ascendc", opts_.cache_dir / "pch", "/usr"};
  std::vector<Unit> units(req.units.size());
  std::atomic<size_t> reused{0};
  std::vector<std::thread> compilers;
  for (size_t i = 0; i < req.units.size(); ++i) {
    compilers.emplace_back([this, &req, &units, &view, &tmp, &reused, &cacheable_deps_root, i]() {
      Unit& u = units[i];
      const CompileUnit& cu = req.units[i];
      u.object = (tmp / ("u" + std::to_string(i) + ".o")).string();
      auto compile = [&](const std::string& depfile) {
        const auto argv = compile_command(req, i, u.object, depfile, view, u.log);
        base::ProcessResult pr = run_compiler(argv, tmp, view, &u.isolation);
        u.log += pr.output;
        u.exit_code = pr.exit_code;
      };
      if (!cu.relocatable) return compile("");
      // One compile per key at a time: the variants of a candidate built together share their
      // op_host object, and the ones that wait take it from the cache.
      const std::string key = object_key(req, cu);
      const std::shared_ptr<std::mutex> key_mu = object_lock(key);
      std::lock_guard key_lock(*key_mu);
      if (auto hit = objects_.find(key)) {
        u.object = hit->string();
        ++reused;
        return;
      }
      const std::string depfile = (tmp / ("u" + std::to_string(i) + ".d")).string();
      compile(depfile);
      if (u.exit_code != 0) return;
      std::vector<fs::path> covered = cacheable_deps_root;
      covered.push_back(cu.source.parent_path());
      const auto deps = depfile_dependencies(base::read_text(depfile));
      if (!deps.empty() && dependencies_within(deps, covered)) objects_.store(key, u.object);
    });
  }
  for (auto& t : compilers) t.join();
  r.objects_reused = reused;
  std::vector<std::string> objects;
  std::string log;
  bool ok = true;
  bool compiler_rejected = true;  // the compiler ran and said no (cacheable), vs. could not run
  for (const Unit& u : units) {
    log += u.log;
    if (r.isolation.empty()) r.isolation = u.isolation;
    objects.push_back(u.object);
    if (u.exit_code != 0) {
      ok = false;
      compiler_rejected = compiler_rejected && u.exit_code > 0;
    }
  }
  if (ok) {
    std::vector<std::string> argv = {opts_.compiler, "-shared", "-o", (tmp / "lib.so").string()};
    argv.insert(argv.end(), objects.begin(), objects.end());
    // The link also reads the objects taken from the object cache.
    std::vector<fs::path> link_view = view;
    link_view.push_back(objects_.dir());
    for (const auto& d : objects_.read_only_dirs()) link_view.push_back(d);
    base::ProcessResult pr = run_compiler(argv, tmp, link_view, r.isolation.empty() ? &r.isolation : nullptr);
    log += pr.output;
    ok = pr.exit_code == 0;
    compiler_rejected = pr.exit_code > 0;
  }
  r.log = staged.unstage(log);
  r.diagnostics = parse_diagnostics(r.log);
  if (ok) {
    fs::rename(tmp / "lib.so", so, ec);
    r.ok = !ec;
    if (ec) r.log += "cannot publish " + so.string() + ": " + ec.message();
    r.library = so;
  } else {
    if (r.log.empty()) r.log = "compiler failed without output";
    // Kept naming the staged copies: every requester reads it back in its own folders' names.
    if (compiler_rejected) base::publish_text(fail, log.empty() ? r.log : log);
  }
  fs::remove_all(tmp, ec);
  return finish();
}

}  // namespace aoc::build
