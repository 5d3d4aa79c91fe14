// aoc-rewrite: finds, removes and applies optimization motifs in an AscendC operator's
// sources. Called by `ascendopt motifs` and `ascendopt rewrite`; prints JSON on stdout.
//
//   aoc-rewrite list
//   aoc-rewrite detect [--motif M] --root DIR --kernel F.cpp... [--host F.cpp...]
//               [--output FILE] [--kernel-args FLAGS... ] [--host-args FLAGS...]
//   aoc-rewrite apply|remove --motif M ... [--write]
//   aoc-rewrite pin-config --config '{"knobs": {...}, "cores": N, "ub_bytes": N}' ... [--write]
//               (a tuner's configuration written into the sources: tools/rewrite/pin_config.h)
//   aoc-rewrite check-api [--json] --headers INCLUDE_DIR --kernel-root DIR [--root DIR] --kernel F.cpp...
//               [--host F.cpp...] [--variant-args FLAGS...]... [--kernel-args FLAGS...] [--host-args FLAGS...]
//   aoc-rewrite check-api --globals ...   (the global names the AscendC headers declare)
//
// Exit status: 0 done (check-api: no violation), 1 the sources do not parse, 2 usage error,
// 3 transformation refused, 4 check-api found violations.
#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>
#include <stdexcept>

#include "api_check.h"
#include "api_rules.h"
#include "clang_frontend.h"
#include "edits.h"
#include "motif.h"
#include "pin_config.h"

namespace {

using aoc::rewrite::Range;
using nlohmann::json;

// Where the JSON goes: stdout, or the file of --output (clang may print to stderr).
std::ostream* g_out = &std::cout;

struct Options {
  std::string command;
  std::string motif;
  std::string config;  // pin-config: the configuration as JSON
  bool write = false;
  aoc::rewrite::ParseInput parse;
  // check-api
  bool json_out = false;
  bool globals = false;
  std::string headers;
  std::vector<std::string> kernel_roots;
};

int usage(const std::string& why) {
  *g_out << json{{"error", why + " (usage: aoc-rewrite list | detect|apply|remove [--motif M] | pin-config --config JSON --root DIR "
                                       "--kernel F.cpp [--host F.cpp] [--write] [--pch-dir DIR --pch-include DIR] "
                                       "[--kernel-args ...] [--host-args ...])"}}
                   .dump(2)
            << "\n";
  return 2;
}

json where(const Range& r) { return json{{"file", r.file}, {"line", r.line}}; }

json locations(const std::vector<Range>& rs) {
  json a = json::array();
  for (const auto& r : rs) a.push_back(where(r));
  return a;
}

int detect(const aoc::rewrite::KernelModel& m, const std::string& only) {
  json out = json::array();
  for (const auto& motif : aoc::rewrite::catalogue()) {
    if (!only.empty() && motif->name() != only) continue;
    auto d = motif->detect(m);
    out.push_back({{"motif", motif->name()},
                   {"summary", motif->summary()},
                   {"state", aoc::rewrite::to_string(d.state)},
                   {"reason", d.reason},
                   {"locations", locations(d.ranges)}});
  }
  *g_out << json{{"motifs", out}}.dump(2) << "\n";
  return 0;
}

// The transformation's answer (`out` plus the changed files, written with --write) or its
// refusal; exit status 0 or 3.
int emit(const aoc::rewrite::KernelModel& m, const aoc::rewrite::Transform& t, json out, const Options& o) {
  if (!t.refused.empty()) {
    out["refused"] = t.refused;
    *g_out << out.dump(2) << "\n";
    return 3;
  }
  std::map<std::string, std::string> changed;
  try {
    changed = aoc::rewrite::apply_edits(m, t.edits);
  } catch (const std::invalid_argument& e) {
    out["refused"] = std::string("the motif's edits conflict: ") + e.what();
    *g_out << out.dump(2) << "\n";
    return 3;
  }
  json files = json::array();
  for (const auto& [path, text] : changed) {
    files.push_back(path);
    if (o.write) {
      std::ofstream f(path, std::ios::binary | std::ios::trunc);
      f << text;
      if (!f) {
        *g_out << json{{"error", "cannot write " + path}}.dump(2) << "\n";
        return 1;
      }
    }
  }
  out["files"] = files;
  out["locations"] = locations(t.ranges);
  out["written"] = o.write;
  if (!o.write) {
    json texts = json::object();
    for (const auto& [path, text] : changed) texts[path] = text;
    out["contents"] = texts;
  }
  *g_out << out.dump(2) << "\n";
  return 0;
}

int transform(const aoc::rewrite::KernelModel& m, const Options& o) {
  const auto* motif = aoc::rewrite::find_motif(o.motif);
  auto t = o.command == "apply" ? motif->apply(m) : motif->remove(m);
  return emit(m, t, {{"motif", o.motif}, {"action", o.command}, {"state", aoc::rewrite::to_string(motif->detect(m).state)}}, o);
}

int pin(const aoc::rewrite::KernelModel& m, const Options& o) {
  aoc::rewrite::PinnedConfig cfg;
  try {
    cfg = aoc::rewrite::parse_pinned_config(o.config);
  } catch (const std::invalid_argument& e) {
    return usage(e.what());
  }
  return emit(m, aoc::rewrite::pin_config(m, cfg), {{"action", o.command}}, o);
}

// check-api: violations as text lines or JSON; exit status 4 when there is any.
int check_api(const Options& o) {
  if (o.globals) {
    json names = aoc::rewrite::header_global_names(o.parse, o.headers);
    *g_out << json{{"globals", names}, {"allowed", aoc::rewrite::global_api_names()}}.dump(2) << "\n";
    return 0;
  }
  const aoc::rewrite::ApiCheckResult r = aoc::rewrite::check_api({o.parse, o.kernel_roots, o.headers});
  if (!r.errors.empty()) {
    json e = json::array();
    for (const auto& x : r.errors) e.push_back({{"file", x.file}, {"line", x.line}, {"column", x.column}, {"message", x.message}});
    const auto& first = r.errors.front();
    *g_out << json{{"error", "the sources do not parse: " + first.file + ":" + std::to_string(first.line) + ": " +
                                 first.message},
                   {"diagnostics", e}}
                  .dump(2)
           << "\n";
    return 1;
  }
  if (o.json_out) {
    json v = json::array();
    for (const auto& x : r.violations)
      v.push_back({{"file", x.file}, {"line", x.line}, {"column", x.column}, {"symbol", x.symbol}, {"reason", x.reason}});
    *g_out << json{{"violations", v}}.dump(2) << "\n";
  } else {
    for (const auto& x : r.violations)
      *g_out << x.file << ":" << x.line << ":" << x.column << ": `" << x.symbol << "`: " << x.reason << "\n";
  }
  return r.violations.empty() ? 0 : 4;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (argc < 2) return usage("no command");
  o.command = argv[1];
  if (o.command == "list") {
    json out = json::array();
    for (const auto& m : aoc::rewrite::catalogue()) out.push_back({{"motif", m->name()}, {"summary", m->summary()}});
    *g_out << json{{"motifs", out}}.dump(2) << "\n";
    return 0;
  }
  if (o.command != "detect" && o.command != "apply" && o.command != "remove" && o.command != "check-api" &&
      o.command != "pin-config")
    return usage("unknown command " + o.command);
  std::vector<std::string>* flags = nullptr;
  std::string output;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](std::string& into) {
      if (i + 1 >= argc) return false;
      into = argv[++i];
      return true;
    };
    std::string v;
    if (a == "--kernel-args") flags = &o.parse.kernel_flags;
    else if (a == "--host-args") flags = &o.parse.host_flags;
    else if (a == "--variant-args") flags = &o.parse.kernel_variants.emplace_back();
    else if (flags) flags->push_back(a);
    else if (a == "--motif") { if (!value(o.motif)) return usage("--motif needs a name"); }
    else if (a == "--config") { if (!value(o.config)) return usage("--config needs a JSON object"); }
    else if (a == "--root") { if (!value(v)) return usage("--root needs a folder"); o.parse.editable_roots.push_back(v); }
    else if (a == "--kernel") { if (!value(v)) return usage("--kernel needs a file"); o.parse.kernel_files.push_back(v); }
    else if (a == "--host") { if (!value(v)) return usage("--host needs a file"); o.parse.host_files.push_back(v); }
    else if (a == "--pch-dir") { if (!value(o.parse.pch_dir)) return usage("--pch-dir needs a folder"); }
    else if (a == "--pch-include") { if (!value(o.parse.pch_include_dir)) return usage("--pch-include needs a folder"); }
    else if (a == "--write") o.write = true;
    else if (a == "--json") o.json_out = true;
    else if (a == "--globals") o.globals = true;
    else if (a == "--headers") { if (!value(o.headers)) return usage("--headers needs a folder"); }
    else if (a == "--kernel-root") {
      if (!value(v)) return usage("--kernel-root needs a folder");
      o.kernel_roots.push_back(v);
      o.parse.editable_roots.push_back(v);
    }
    else if (a == "--output") { if (!value(output)) return usage("--output needs a file"); }
    else return usage("unknown option " + a);
  }
  std::ofstream out_file;
  if (!output.empty()) {
    out_file.open(output, std::ios::trunc);
    if (!out_file) return usage("cannot write --output " + output);
    g_out = &out_file;
  }
  if (o.parse.kernel_files.empty()) return usage("no --kernel file");
  if (o.parse.editable_roots.empty()) return usage("no --root folder (the operator sources that may be edited)");
  if (o.command == "check-api" && o.headers.empty()) return usage("check-api needs --headers (include/ascendc)");
  if (!o.motif.empty() && !aoc::rewrite::find_motif(o.motif)) return usage("unknown motif " + o.motif + " (see aoc-rewrite list)");
  if (o.command == "check-api") {
    for (const auto& f : o.parse.kernel_files)
      if (!std::ifstream(f)) return usage("cannot read " + f);
    for (const auto& f : o.parse.host_files)
      if (!std::ifstream(f)) return usage("cannot read " + f);
    return check_api(o);
  }
  if (o.command == "pin-config" && o.config.empty()) return usage("pin-config needs --config");
  if (o.command != "detect" && o.command != "pin-config" && o.motif.empty()) return usage(o.command + " needs --motif");
  for (const auto& f : o.parse.kernel_files)
    if (!std::ifstream(f)) return usage("cannot read " + f);
  for (const auto& f : o.parse.host_files)
    if (!std::ifstream(f)) return usage("cannot read " + f);

  aoc::rewrite::KernelModel model;
  auto errors = aoc::rewrite::parse_sources(o.parse, model);
  if (!errors.empty()) {
    json e = json::array();
    for (const auto& x : errors) e.push_back({{"file", x.file}, {"line", x.line}, {"column", x.column}, {"message", x.message}});
    const auto& first = errors.front();
    *g_out << json{{"error", "the sources do not parse: " + first.file + ":" + std::to_string(first.line) + ": " +
                                    first.message},
                      {"diagnostics", e}}
                     .dump(2)
              << "\n";
    return 1;
  }
  if (o.command == "pin-config") return pin(model, o);
  return o.command == "detect" ? detect(model, o.motif) : transform(model, o);
}
