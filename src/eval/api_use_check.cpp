#include "eval/api_use_check.h"

#include <unistd.h>

#include <chrono>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "base/content_hash.h"
#include "base/file_text.h"
#include "base/process.h"
#include "base/published_file.h"
#include "build/header_hash.h"
#include "build/op_build.h"
#include "build/program_identity.h"
#include "package/op_package.h"

#ifndef AOC_REWRITE_PATH
#define AOC_REWRITE_PATH ""
#endif

namespace aoc::eval {
namespace fs = std::filesystem;
using nlohmann::json;

fs::path api_checker_path() {
  if (const char* p = std::getenv("AOC_REWRITE"); p != nullptr && *p) return p;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec && fs::exists(self.parent_path() / "aoc-rewrite")) return self.parent_path() / "aoc-rewrite";
  return AOC_REWRITE_PATH;
}

namespace {

constexpr int kViolations = 4;  // aoc-rewrite check-api: exit status when it found any
constexpr int kDoesNotParse = 1;
constexpr int kTimedOut = 124;            // timeout(1): the limit passed, the checker was sent SIGTERM
constexpr int kKilledAfterTimeout = 137;  // timeout(1): it was still there --kill-after later
constexpr unsigned long long kApiCheckAddressSpace = 8ull << 30;

// The checker's wall-clock limit: $AOC_API_CHECK_SECONDS, else 300 s (a cold check of a
// package takes one to two seconds; the margin is for a loaded machine).
int api_check_seconds() {
  if (const char* v = std::getenv("AOC_API_CHECK_SECONDS")) {
    const int n = std::atoi(v);
    if (n > 0) return n;
  }
  return 300;
}

bool out_of_memory(const std::string& output) {
  return output.find("std::bad_alloc") != std::string::npos || output.find("out of memory") != std::string::npos;
}

// The real path of a source folder, ending in '/': the checker reports real paths.
std::string folder_prefix(const fs::path& dir) {
  std::error_code ec;
  std::string p = fs::weakly_canonical(dir, ec).string();
  if (ec) p = dir.string();
  if (!p.empty() && p.back() != '/') p += '/';
  return p;
}

// Findings are kept with their files relative to the source folders ("kernel:add.cpp"), so
// the same sources in another folder read back in that folder's names.
struct Relocation {
  std::vector<std::pair<std::string, fs::path>> folders;  // tag, folder as the candidate names it
  std::vector<std::string> real;                          // the folders' real paths

  std::string to_tag(const std::string& file) const {
    for (size_t i = 0; i < folders.size(); ++i)
      if (file.rfind(real[i], 0) == 0) return folders[i].first + ":" + file.substr(real[i].size());
    return file;
  }
  std::string from_tag(const std::string& tagged) const {
    for (const auto& [tag, dir] : folders)
      if (tagged.rfind(tag + ":", 0) == 0) return (dir / tagged.substr(tag.size() + 1)).string();
    return tagged;
  }
};

ApiCheckOutcome from_json(const json& j, const Relocation& where) {
  ApiCheckOutcome out;
  if (j.contains("parse_error")) {
    const json& e = j.at("parse_error");
    out.parse_error = "the sources do not parse with clang: " + where.from_tag(e.at("file").get<std::string>()) + ":" +
                      std::to_string(e.at("line").get<int>()) + ": " + e.at("message").get<std::string>();
  }
  for (const auto& v : j.at("violations")) {
    SourceFinding f;
    f.file = where.from_tag(v.at("file").get<std::string>());
    f.line = v.at("line").get<int>();
    f.column = v.at("column").get<int>();
    f.rule = "api-use";
    f.text = v.at("symbol").get<std::string>();
    f.advice = v.at("reason").get<std::string>();
    out.findings.push_back(std::move(f));
  }
  return out;
}

}  // namespace

ApiCheckOutcome check_api_use(const Candidate& c, const fs::path& checker, const fs::path& root,
                              const fs::path& cache_dir, const std::vector<fs::path>& shared_caches,
                              bool precompiled_headers) {
  const auto t0 = std::chrono::steady_clock::now();
  auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  if (checker.empty() || ::access(checker.c_str(), X_OK) != 0)
    throw ApiCheckUnavailable("the API checker aoc-rewrite is missing (" + checker.string() +
                              "); build it with `cmake --build build --target aoc-rewrite` (it needs clang 19, "
                              "scripts/install-deps.sh) or point AOC_REWRITE at it");
  const fs::path inc = root / "include" / "ascendc";
  const build::SourceDirs& src = c.sources;
  Relocation where{{{"kernel", src.kernel}, {"host", src.host}}, {folder_prefix(src.kernel), folder_prefix(src.host)}};

  // The kernel build's flags (src/build/op_build.cpp): each dtype variant is its own parse,
  // since each compiles its own code.
  std::vector<std::string> variants_args;
  base::ContentHash key;
  // The rules are compiled into the checker: a rebuilt one answers afresh.
  key.add("aoc-api-check-v1").add(build::executable_identity_once(checker)).add(build::ascendc_header_hash(root));
  key.add(c.package.name).add(base::tree_hash(src.kernel)).add(base::tree_hash(src.host));
  for (size_t v = 0; v < c.package.variant_count(); ++v) {
    variants_args.push_back("--variant-args");
    for (const auto& m : build::dtype_macros(c.package, v)) {
      variants_args.push_back(m);
      key.add(m);
    }
  }
  const std::vector<fs::path> tiling = package::kernel_tiling_headers(src.host, c.package.name);
  for (const auto& h : tiling) key.add("tiling-header " + h.filename().string());
  const fs::path kept = cache_dir / "api-check" / (key.hex() + ".json");
  std::vector<fs::path> answers;
  for (const auto& shared : shared_caches) answers.push_back(shared / "api-check" / kept.filename());
  answers.push_back(kept);
  for (const auto& answer : answers) {
    const json j = json::parse(base::read_text(answer), nullptr, false);
    if (j.is_object() && j.contains("violations")) {
      try {
        ApiCheckOutcome out = from_json(j, where);
        out.from_cache = true;
        out.seconds = seconds();
        return out;
      } catch (const json::exception&) {
        // A damaged answer is a miss; it is replaced below.
      }
    }
  }

  std::vector<std::string> argv = {checker.string(), "check-api", "--json", "--headers", inc.string(),
                                   "--kernel-root", src.kernel.string(), "--root", src.host.string()};
  const std::vector<fs::path> kernels = package::cpp_files(src.kernel);
  for (const auto& f : kernels) argv.insert(argv.end(), {"--kernel", f.string()});
  for (const auto& f : package::host_cpp_files(src.host)) argv.insert(argv.end(), {"--host", f.string()});
  // The rewriter's precompiled headers: the same parse options, so they are shared.
  if (precompiled_headers)
    argv.insert(argv.end(), {"--pch-dir", (cache_dir / "rewrite-pch").string(), "--pch-include", inc.string()});
  argv.insert(argv.end(), variants_args.begin(), variants_args.end());
  argv.insert(argv.end(), {"--kernel-args", "-I" + inc.string(), "-I" + src.host.string(), "-I" + src.kernel.string()});
  for (const auto& h : tiling) argv.insert(argv.end(), {"-include", h.string()});
  argv.insert(argv.end(), {"--host-args", "-I" + inc.string(), "-I" + src.host.string()});

  ApiCheckOutcome out;
  if (kernels.empty()) {
    out.seconds = seconds();
    return out;  // nothing to check; the build reports the missing kernel
  }
  const fs::path answer = base::temporary_beside(kept);
  fs::create_directories(answer.parent_path());
  argv.insert(argv.begin() + 2, {"--output", answer.string()});
  // The parse runs the candidate's preprocessor and templates: a macro or template explosion
  // must end as a verdict, not stall the evaluation or exhaust the machine. coreutils' timeout
  // and util-linux's prlimit bound its time and address space (a cold check takes seconds).
  const int limit_s = api_check_seconds();
  argv.insert(argv.begin(), {"timeout", "--kill-after=5", std::to_string(limit_s), "prlimit",
                             "--as=" + std::to_string(kApiCheckAddressSpace)});
  const base::ProcessResult r = base::run_process(argv);
  const std::string text = base::read_text(answer);
  const bool timed_out = r.exit_code == kTimedOut || r.exit_code == kKilledAfterTimeout;
  if (timed_out || (r.exit_code != 0 && text.empty() && out_of_memory(r.output))) {
    std::error_code gone;
    fs::remove(answer, gone);
    // Not kept: how long a parse takes depends on the machine's load as much as on the sources.
    SourceFinding f;
    f.file = kernels.front().string();
    f.rule = "api-use";
    f.text = "(the whole unit)";
    f.advice = timed_out ? "the check did not finish within " + std::to_string(limit_s) +
                         " s (AOC_API_CHECK_SECONDS); a macro or template that expands without bound cannot be judged, simplify it"
                   : "the check ran out of memory; a macro or template that expands without bound cannot be judged, simplify it";
    out.findings.push_back(std::move(f));
    out.seconds = seconds();
    return out;
  }
  std::error_code ec;
  fs::remove(answer, ec);
  const json body = json::parse(text, nullptr, false);
  json keep = {{"violations", json::array()}};
  if (r.exit_code == kDoesNotParse && body.is_object() && body.contains("error")) {
    json d = body.contains("diagnostics") && !body["diagnostics"].empty() ? body["diagnostics"][0] : json::object();
    keep["parse_error"] = {{"file", where.to_tag(d.value("file", std::string()))},
                           {"line", d.value("line", 0)},
                           {"message", d.value("message", body.value("error", std::string()))}};
  } else if ((r.exit_code == 0 || r.exit_code == kViolations) && body.is_object() && body.contains("violations")) {
    for (json v : body["violations"]) {
      v["file"] = where.to_tag(v.value("file", std::string()));
      keep["violations"].push_back(v);
    }
  } else {
    throw ApiCheckUnavailable("the API checker " + checker.string() + " failed (exit status " +
                              std::to_string(r.exit_code) + "): " + r.output.substr(0, 2000));
  }
  out = from_json(keep, where);
  base::publish_text(kept, keep.dump());  // failing to keep it is not an error: the answer is here
  out.seconds = seconds();
  return out;
}

}  // namespace aoc::eval
