#include "eval/candidate_eval.h"

#include <unistd.h>

#include <csignal>
#include <cstring>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <future>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

#include "base/content_hash.h"
#include "base/rng.h"
#include "eval/api_use_check.h"
#include "eval/case_size.h"
#include "eval/contained.h"
#include "eval/harness_protocol.h"
#include "eval/include_check.h"
#include "eval/judge.h"
#include "eval/reference_cache.h"
#include "eval/reference_files.h"
#include "eval/source_names.h"
#include "eval/syscall_filter.h"
#include "eval/write_volume.h"
#include "package/case_gen.h"
#include "package/case_inputs.h"
#include "package/kernel_library.h"
#include "runtime/block_traces.h"
#include "sim/chrome_trace.h"
#include "sim/engine.h"
#include "sim/hazards.h"
#include "sim/hw_limit.h"
#include "sim/profile.h"
#include "sim/soc.h"
#include "sim/time_bound.h"

#ifndef AOC_HARNESS_PATH
#define AOC_HARNESS_PATH "aoc-harness"
#endif

namespace aoc::eval {
namespace fs = std::filesystem;
using nlohmann::json;

CandidateEvalOptions default_candidate_eval_options() {
  CandidateEvalOptions o;
  const char* h = std::getenv("AOC_HARNESS");
  o.harness = h != nullptr && *h ? fs::path(h) : fs::path(AOC_HARNESS_PATH);
  o.api_checker = api_checker_path();
  // Not fs::temp_directory_path(): it throws on a TMPDIR that names no folder, and that
  // deserves a message (temp_root_problem) rather than an abort.
  const char* t = std::getenv("TMPDIR");
  o.temp_root = t != nullptr && *t ? fs::path(t) : fs::path("/tmp");
  return o;
}

namespace {
std::atomic<size_t> g_inputs_drawn{0};
}  // namespace

size_t case_inputs_drawn() { return g_inputs_drawn.load(); }

std::string temp_root_problem(const fs::path& root) {
  std::error_code ec;
  const std::string fix = "; set TMPDIR to an existing writable folder (or unset it to use /tmp)";
  if (!fs::exists(root, ec)) return "the temporary folder " + root.string() + " does not exist" + fix;
  if (!fs::is_directory(root, ec)) return "the temporary folder " + root.string() + " is not a folder" + fix;
  if (::access(root.c_str(), W_OK | X_OK) != 0) return "the temporary folder " + root.string() + " is not writable" + fix;
  return "";
}

namespace {

using Clock = std::chrono::steady_clock;

// A private folder (mode 0700) removed when the case is done.
struct PrivateDir {
  fs::path path;
  explicit PrivateDir(const fs::path& root) {
    std::string tmpl = (root / "aoc-eval-XXXXXX").string();
    if (mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("cannot create a private folder in " + root.string());
    path = tmpl;
  }
  ~PrivateDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

struct Setup {
  const aoc::package::OpPackage* p = nullptr;
  std::unique_ptr<aoc::sim::Soc> soc;
  GoldenFiles golden;
  std::map<size_t, fs::path> kernel_sos;                            // per dtype variant
  std::map<size_t, SourceNames> source_names;                       // per dtype variant: its build's folders
  std::map<size_t, std::vector<std::vector<int64_t>>> out_shapes;  // per selected case
  std::map<size_t, std::string> shape_errors;                       // InferShape refused the case
  std::string reference_scope;  // what a case's inputs and golden outputs depend on besides the case
  std::optional<ReferenceFiles> references_on_disk;  // behind the process's memory cache
};

// The key of a case's inputs and golden outputs in the reference cache.
std::string value_range_key(const aoc::package::ValueRange& v) {
  std::ostringstream os;
  os.precision(17);
  os << v.dist << ':' << v.low << ':' << v.high << ':' << v.value;
  for (double x : v.special) os << ',' << x;
  return os.str();
}

// Everything of a case its inputs and golden outputs depend on: a case changed in memory (the
// fuzzer's shrinking, at the same place and name) never meets another's references.
std::string reference_key(const Setup& s, size_t ci) {
  const aoc::package::CaseSpec& c = s.p->cases[ci];
  std::string key = s.reference_scope + "|" + std::to_string(ci) + "|" + c.name + "|" + std::to_string(c.variant);
  for (const auto& [name, shape] : c.shapes) key += "|" + name + "=" + aoc::package::shape_to_string(shape);
  for (const auto& shape : s.out_shapes.at(ci)) key += "|" + aoc::package::shape_to_string(shape);
  key += "|v=" + value_range_key(c.values);
  for (const auto& [name, v] : c.input_values) key += "|" + name + "~" + value_range_key(v);
  for (const auto& [name, v] : c.attrs) key += "|" + name + "@" + aoc::package::to_string(v);
  return key;
}

aoc::package::TypedBuffer as_buffer(aoc::package::ElemType t, size_t count, std::vector<unsigned char> bytes) {
  const size_t expected = count * aoc::package::info(t).bytes;
  if (bytes.size() != expected)
    throw std::runtime_error("the harness returned " + std::to_string(bytes.size()) + " bytes for an output of " +
                             std::to_string(expected));
  aoc::package::TypedBuffer b;
  b.type = t;
  b.count = count;
  b.bytes = std::move(bytes);  // tens of MiB for a large case: taken over, not copied
  return b;
}

Verdict verdict_of_status(const std::string& s) {
  if (s == "memory_limit") return Verdict::MemoryLimit;
  return Verdict::RuntimeError;
}

// Sandbox outcome -> verdict when the child did not finish normally.
std::optional<std::pair<Verdict, std::string>> abnormal_end(const base::SandboxResult& sr, const base::SandboxLimits& l) {
  auto tail = [&]() {
    if (sr.output.empty()) return std::string();
    std::string s = sr.output.substr(0, 400);
    return "; its output began: " + s;
  };
  if (!sr.started) return std::make_pair(Verdict::Error, "cannot start the harness: " + sr.start_error);
  if (sr.timed_out)
    return std::make_pair(Verdict::Timeout, "the case did not finish within the wall-clock limit of " +
                                                std::to_string(static_cast<int>(l.wall_seconds)) +
                                                " s (an endless loop?); the process group was killed");
  if (sr.cpu_limit)
    return std::make_pair(Verdict::Timeout, "the case used more than the CPU limit of " +
                                                std::to_string(l.cpu_seconds) + " s");
  // The harness's system-call filter stopped the candidate (eval/syscall_filter.h).
  const size_t forbidden = sr.output.find(kForbiddenSyscallMarker);
  if ((sr.exited && sr.exit_code == kForbiddenSyscallExit && forbidden != std::string::npos) || sr.signal == SIGSYS) {
    // No name when the call was made with signals blocked (system() and posix_spawn block them
    // around their clone): the kernel then ends the process with SIGSYS at once.
    std::string call = "one made while signals were blocked (as system() and posix_spawn create processes)";
    if (forbidden != std::string::npos) {
      const size_t from = forbidden + std::strlen(kForbiddenSyscallMarker);
      call = sr.output.substr(from, sr.output.find('\n', from) - from);
    }
    return std::make_pair(Verdict::Rejected,
                          "the candidate made a system call the sandbox forbids: " + call +
                              " (kernels may not start processes, open files for writing, change the file system, "
                              "use sockets or touch other processes)");
  }
  if (sr.signal != 0)
    return std::make_pair(Verdict::Crash, "the kernel process was killed by " + base::signal_description(sr.signal) + tail());
  if (sr.exit_code != 0)
    return std::make_pair(Verdict::Crash, "the kernel process exited with status " + std::to_string(sr.exit_code) +
                                              " (the candidate called exit?)" + tail());
  return std::nullopt;
}

CaseResult run_one_case(const Setup& s, size_t ci, const CandidateEvalOptions& opt, std::string& isolation) {
  const auto t0 = Clock::now();
  const aoc::package::OpPackage& p = *s.p;
  const aoc::package::CaseSpec& c = p.cases[ci];
  CaseResult out;
  out.name = c.name;
  out.dtype = p.variant_label(c.variant);
  for (size_t i = 0; i < p.inputs.size(); ++i)
    out.shapes += (i ? " " : "") + p.inputs[i].name + "=" + aoc::package::shape_to_string(c.shapes.at(p.inputs[i].name));
  auto lap_start = t0;
  auto lap = [&](const char* phase) {  // time since the previous lap, charged to `phase`
    const auto now = Clock::now();
    out.phase_ms[phase] += std::chrono::duration<double, std::milli>(now - lap_start).count();
    lap_start = now;
  };
  auto finish = [&](Verdict v, std::string msg) {
    out.verdict = v;
    out.message = std::move(msg);
    out.wall_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    return out;
  };

  // Two trials: the seeded inputs, then perturbed ones (a different stream of the
  // same ranges) in the same process, so a kernel replaying earlier outputs shows.
  // Both, and the golden's outputs for them, come from the reference cache when another
  // candidate of the operator already ran this case with this seed.
  // A one-trial run (a cascade's screen) is the first trial of the two-trial gate.
  const int kTrials = opt.trials;
  if (kTrials < 1 || kTrials > 2) return finish(Verdict::Error, "evaluator: trials must be 1 or 2");
  const uint64_t seeds[2] = {opt.seed, aoc::base::mix_seed(opt.seed, 0x5eed2ull, 0x7e57ull)};
  if (const auto bad = s.shape_errors.find(ci); bad != s.shape_errors.end()) return finish(Verdict::Error, bad->second);
  // A case the harness could not hold is said so before its buffers are drawn (in this process).
  if (!opt.tiling_only)
    if (std::string big = oversized_case(p, c, s.out_shapes.at(ci), opt.limits.address_space_bytes); !big.empty())
      return finish(Verdict::Error, "the case does not fit in memory: " + big + "; raise --memory-gb or shrink the case");
  ReferenceCache& cache = ReferenceCache::shared();
  const std::string key = reference_key(s, ci);
  std::shared_ptr<const CaseReference> known =
      opt.tiling_only ? nullptr : cache.find(key, static_cast<size_t>(kTrials));
  auto fresh = std::make_shared<CaseReference>();
  if (!known && !opt.tiling_only) {
    // Inputs and golden outputs another process kept for the same case (another build of this
    // program would draw other inputs: the files are keyed by the program too); inputs come as
    // a read-only mapping of their file. Inputs not on disk are drawn and kept there.
    if (s.references_on_disk) fresh->inputs = s.references_on_disk->load_inputs(key, static_cast<size_t>(kTrials));
    if (!fresh->inputs) {
      std::vector<std::vector<aoc::package::CaseTensor>> drawn;
      for (int t = 0; t < kTrials; ++t) drawn.push_back(aoc::package::make_case_inputs(p, ci, seeds[t]));
      ++g_inputs_drawn;
      fresh->inputs = std::make_shared<const CaseInputs>(std::move(drawn));
      if (s.references_on_disk) s.references_on_disk->save_inputs(key, *fresh->inputs);
    }
  }
  // Golden outputs kept on disk are read and widened on another thread while the harness runs
  // (tens of megabytes on a performance case); the judge waits for them.
  std::future<std::optional<TrialReferences>> outputs_on_disk;
  if (!known && !opt.tiling_only && s.references_on_disk)
    outputs_on_disk = std::async(std::launch::async, [&s, key, kTrials]() {
      return s.references_on_disk->load(key, static_cast<size_t>(kTrials));
    });
  lap("inputs");
  const CaseInputs* inputs = opt.tiling_only ? nullptr : known ? known->inputs.get() : fresh->inputs.get();

  PrivateDir dir(opt.temp_root);
  HarnessRequest req;
  req.kernel_symbol = p.kernel;
  req.op_type = p.op_type;
  // The SoC by its file: its folder (SoC files include shared ones) is what the harness reads
  // outside its own folder, besides itself.
  if (s.soc) req.soc = fs::absolute(s.soc->source_path).string();
  req.trials = opt.tiling_only ? 1 : kTrials;
  req.config = opt.config;
  req.tiling_only = opt.tiling_only;
  for (size_t i = 0; i < p.inputs.size(); ++i)
    req.inputs.push_back({p.inputs[i].name, opt.tiling_only ? c.shapes.at(p.inputs[i].name) : inputs->shape(0, i),
                          p.inputs[i].dtypes[c.variant], p.inputs[i].format});
  std::vector<size_t> out_counts;
  for (size_t o = 0; o < p.outputs.size(); ++o) {
    const auto& shape = s.out_shapes.at(ci).at(o);
    out_counts.push_back(static_cast<size_t>(aoc::package::element_count(shape)));
    req.outputs.push_back({p.outputs[o].name, shape, p.outputs[o].dtypes[c.variant], p.outputs[o].format});
  }
  req.attrs = p.case_attrs(c);
  fs::copy_file(s.kernel_sos.at(c.variant), dir.path / req.library);
  base::SandboxLimits limits = opt.limits;
  // Inputs kept in the build cache reach the harness as their file, shown read-only by the
  // sandbox, which the harness maps privately; inputs drawn here, or whose file has left the
  // cache since it was mapped, are copied into its folder. The harness fills its output buffers
  // with the poison byte itself.
  const bool by_file = inputs != nullptr && inputs->mapped() && inputs->file()->still_at_path();
  if (by_file) {
    const base::MappedFile& file = *inputs->file();
    limits.readable.push_back(file.path());
    for (int t = 0; t < kTrials; ++t) {
      req.input_sources.emplace_back();
      for (size_t i = 0; i < inputs->count(t); ++i)
        req.input_sources.back().push_back({file.path().string(),
                                            static_cast<uint64_t>(inputs->bytes(t, i).data() - file.data()),
                                            inputs->bytes(t, i).size()});
    }
  }
  write_request(dir.path, req);
  for (int t = 0; t < kTrials && inputs != nullptr && !by_file; ++t)
    for (size_t i = 0; i < inputs->count(t); ++i)
      write_bytes(input_file(dir.path, t, i), inputs->bytes(t, i).data(), inputs->bytes(t, i).size());

  if (s.soc) limits.readable.push_back(fs::path(req.soc).parent_path());
  lap("files");
  const base::SandboxResult sr = base::run_sandboxed({fs::absolute(opt.harness).string(), dir.path.string()}, dir.path, limits);
  lap("harness");
  isolation = sr.isolation;
  if (auto bad = abnormal_end(sr, opt.limits)) return finish(bad->first, bad->second);
  const std::vector<TrialStatus> st = read_statuses(dir.path);
  if (st.size() != static_cast<size_t>(req.trials)) {
    // A child that failed before its first trial (unreadable request ...) says why in one status.
    if (st.size() == 1 && st[0].status != "ok")
      return finish(Verdict::Error, "the harness failed before running the case: " + st[0].message);
    return finish(Verdict::Error, "the harness wrote no readable result.json");
  }
  out.block_dim = st[0].block_dim;
  out.tiling_key = st[0].tiling_key;
  out.knobs = st[0].knobs;
  out.platform_reads = st[0].platform_reads;
  out.tiling_digest = st[0].tiling_digest;
  out.warnings = st[0].warnings;
  out.printed = st[0].printed;
  for (int t = 0; t < req.trials; ++t) {
    out.config_read_by_kernel = out.config_read_by_kernel || st[t].config_read_by_kernel;
    if (st[t].status == "ok") continue;
    out.error_file = st[t].file;
    out.error_line = st[t].line;
    return finish(verdict_of_status(st[t].status), st[t].message);
  }
  if (opt.tiling_only) return finish(Verdict::Ok, "");

  // Correctness: the golden on every trial (in a contained child, unless known), then the gate.
  std::vector<TrialData> trials(kTrials);
  for (int t = 0; t < kTrials; ++t) {
    trials[t].inputs = [inputs, t]() { return &inputs->tensors(static_cast<size_t>(t)); };
    for (size_t o = 0; o < req.outputs.size(); ++o)
      trials[t].outputs.push_back(
          as_buffer(req.outputs[o].dtype, out_counts[o], read_bytes(output_file(dir.path, t, o))));
  }
  lap("judge");
  if (outputs_on_disk.valid())
    if (std::optional<TrialReferences> outputs = outputs_on_disk.get()) {
      fresh->outputs = std::move(*outputs);
      cache.put(key, fresh);
    }
  lap("inputs");
  if (!known && fresh->outputs.empty()) {
    std::vector<const std::vector<aoc::package::CaseTensor>*> trial_inputs;
    for (int t = 0; t < kTrials; ++t) trial_inputs.push_back(&inputs->tensors(static_cast<size_t>(t)));
    ReferenceRun golden = reference_outputs(p, c, s.golden, s.out_shapes.at(ci), trial_inputs, opt.limits.wall_seconds);
    if (!golden.ok) return finish(Verdict::Error, golden.message);
    fresh->outputs = std::move(golden.trials);
    // Only complete references are kept: a golden that failed on these inputs fails again.
    if (std::all_of(fresh->outputs.begin(), fresh->outputs.end(), [](const auto& r) { return r.ok; })) {
      cache.put(key, fresh);
      if (s.references_on_disk) s.references_on_disk->save(key, fresh->outputs);
    }
  }
  lap("golden");
  const TrialReferences& references = known ? known->outputs : fresh->outputs;  // kTrials or more
  Judgement judged =
      judge_case(p, c, s.golden, s.out_shapes.at(ci), trials, references, opt.limits.wall_seconds);
  out.outputs = std::move(judged.outputs);
  lap("judge");
  if (judged.verdict != Verdict::Ok) return finish(judged.verdict, judged.message);

  if (s.soc) {
    try {
      const TraceSet traces = read_traces(trace_file(dir.path, 0));
      // The bytes the kernel stored into the outputs, as the parent sees them: no record of the
      // child can lower this count (eval/write_volume.h).
      std::vector<std::string> names;
      std::vector<uint64_t> sizes, seen;
      for (size_t o = 0; o < req.outputs.size(); ++o) {
        names.push_back(req.outputs[o].name);
        sizes.push_back(trials[0].outputs[o].bytes.size());
        seen.push_back(bytes_unlike(trials[0].outputs[o].bytes, aoc::package::kPoisonByte));
      }
      const VolumeCheck volume = check_write_volume(traces.cores, traces.outputs, names, sizes, seen);
      double written = 0;
      for (const auto& v : volume.outputs) written += double(v.seen_bytes);
      const aoc::sim::WriteBound least = aoc::sim::write_bound(*s.soc, written);
      out.write_bound_us = least.time_us;
      if (opt.on_traces) opt.on_traces(c.name, traces.cores);
      const std::vector<aoc::sim::BlockTrace> blocks = aoc::runtime::block_traces(traces.cores);
      std::vector<const aoc::Trace*> per_core;
      for (const auto& core : traces.cores) {
        per_core.push_back(&core.trace);
        out.api_blocks += core.api_blocks;
        for (const auto& r : core.trace.records) {
          if (r.kind == aoc::RecKind::Scalar) out.kernel_blocks += r.kernel_blocks;
          else ++out.api_records;
        }
      }
      out.hazards = aoc::sim::check_hazards(per_core, 10);
      if (!out.hazards.empty()) return finish(Verdict::RuntimeError, "race: " + out.hazards.front().message());
      const bool chrome_trace = !opt.chrome_trace_path.empty() && c.name == opt.chrome_trace_case;
      aoc::sim::EngineOptions eo;
      eo.record_spans = chrome_trace;  // per-instruction spans only for the trace; cycles do not depend on it
      eo.steady_state = !opt.full_simulation;
      const aoc::sim::SimResult sim = aoc::sim::simulate(*s.soc, blocks, eo);
      out.sim_us = sim.task_duration_us;
      out.skipped_instructions = sim.skipped_instructions;
      out.sim_profile = aoc::sim::make_profile(*s.soc, sim);
      out.profile = out.sim_profile->fields;
      out.bound_pipe = out.sim_profile->bound_pipe;
      const auto hw = aoc::sim::hw_limit(*s.soc, aoc::sim::work_from_traces(*s.soc, blocks));
      out.t_hw_us = hw.time_us;
      out.bound = hw.bound;
      out.t_hw_unit_us = hw.unit_us;
      if (chrome_trace) {
        std::ofstream f(opt.chrome_trace_path);
        if (!f) throw std::runtime_error("cannot write the trace file " + opt.chrome_trace_path);
        aoc::sim::write_chrome_trace(f, *s.soc, per_core, sim);
      }
      // Every reason to doubt the time, the parent's own checks first.
      std::vector<std::string> doubts;
      if (!volume.problem.empty()) doubts.push_back(volume.problem);
      if (*out.sim_us < least.time_us)
        doubts.push_back("simulated time " + std::to_string(*out.sim_us) +
                         " us is below the least time the case's writes need, " + std::to_string(least.time_us) +
                         " us (" + least.formula() + "): the trace does not hold the work the kernel did");
      if (*out.sim_us < hw.time_us)
        doubts.push_back("simulated time " + std::to_string(*out.sim_us) + " us is below the hardware limit T_HW " +
                         std::to_string(hw.time_us) + " us (" + hw.bound + "-bound)");
      if (!doubts.empty()) {
        std::string msg = doubts.front();
        for (size_t i = 1; i < doubts.size(); ++i) msg += "; and " + doubts[i];
        return finish(Verdict::Suspicious, msg);
      }
    } catch (const std::exception& e) {
      return finish(Verdict::RuntimeError, std::string("simulation: ") + e.what());
    }
  }
  lap("simulate");
  return finish(Verdict::Ok, "");
}

// The case's messages from the running kernel (runtime errors, races, GM guard, warnings, output
// checks) name the candidate's files rather than the build's staged copies (eval/source_names.h).
void name_candidate_files(CaseResult& c, const SourceNames& names) {
  c.message = names(c.message);
  c.error_file = names(c.error_file);
  for (auto& w : c.warnings) w = names(w);
  for (auto& h : c.hazards) {
    h.first.file = names(h.first.file);
    h.second.file = names(h.second.file);
  }
  for (auto& o : c.outputs) o.cmp.reason = names(o.cmp.reason);
}

// The host code (op_host) is built into the kernel's library, so a failed build names the part
// its first error is in: "host code" for a file under op_host/, else "kernel".
std::string failing_part(const build::BuildResult& b, const build::SourceDirs& dirs) {
  for (const auto& d : b.diagnostics) {
    if (d.severity != "error" && d.severity != "fatal error") continue;
    const std::string rel = fs::path(d.file).lexically_relative(dirs.host).generic_string();
    return !rel.empty() && rel.rfind("..", 0) != 0 ? "host code" : "kernel";
  }
  return "kernel";
}

// Output shapes of the selected cases. Outputs shaped like no input get theirs from the
// package's own InferShape (trusted like its golden, never the candidate's), which runs in a
// contained child that loads the package's library: a crash there is an error, not the end
// of the evaluator. Returns an error message, empty on success.
std::string output_shapes(const aoc::package::OpPackage& p, const std::vector<size_t>& selected, build::Builder& builder,
                          double wall_seconds, Setup& s) {
  const bool needs_infer_shape =
      std::any_of(p.outputs.begin(), p.outputs.end(), [](const auto& o) { return o.shape_like.empty() && !o.shape; });
  if (!needs_infer_shape) {
    for (size_t i : selected)
      for (size_t o = 0; o < p.outputs.size(); ++o) s.out_shapes[i].push_back(p.output_shape(p.cases[i], o));
    return "";
  }
  const size_t v = p.cases[selected.front()].variant;
  const build::BuildResult own = builder.build(build::kernel_build_request(p, v, build::SourceDirs::of(p), builder.options().root));
  if (!own.ok)
    return "the package's own sources do not build (its InferShape gives the output shapes): " + own.first_error();
  const ContainedResult r = run_contained(
      "the InferShape of " + p.name,
      [&]() {
        aoc::package::KernelLibrary::open(own.library, p.kernel, p.op_type);
        json answer = json::object();
        for (size_t i : selected) {
          json& one = answer[std::to_string(i)];
          try {
            for (size_t o = 0; o < p.outputs.size(); ++o) one["shapes"].push_back(p.output_shape(p.cases[i], o));
          } catch (const std::exception& e) {
            one = {{"error", e.what()}};
          }
        }
        return answer.dump();
      },
      wall_seconds);
  if (!r.ok) return r.error + "; fix the InferShape function in the package's op_host/";
  try {
    const json answer = json::parse(r.answer);
    for (size_t i : selected) {
      const json& one = answer.at(std::to_string(i));
      if (one.contains("error")) s.shape_errors[i] = one.at("error");
      else s.out_shapes[i] = one.at("shapes").get<std::vector<std::vector<int64_t>>>();
    }
  } catch (const std::exception& e) {
    return std::string("unreadable answer from the InferShape process: ") + e.what();
  }
  return "";
}

std::vector<size_t> select_cases(const aoc::package::OpPackage& p, const CandidateEvalOptions& opt, std::string& error) {
  std::vector<size_t> out;
  for (size_t i = 0; i < p.cases.size(); ++i)
    if (opt.only_cases.empty() ||
        std::find(opt.only_cases.begin(), opt.only_cases.end(), p.cases[i].name) != opt.only_cases.end())
      out.push_back(i);
  if (out.empty()) error = "no case of " + p.name + " matches the requested names";
  return out;
}

}  // namespace

void summarise(CandidateReport& r) {
  if (r.cases.empty()) return;
  const CaseResult* worst = &r.cases.front();
  for (const auto& c : r.cases)
    if (rank(c.verdict) > rank(worst->verdict)) worst = &c;
  r.verdict = worst->verdict;
  r.message = worst->verdict == Verdict::Ok ? "" : "case " + worst->name + ": " + worst->message;
}

CandidateReport evaluate_candidate(const Candidate& cand, build::Builder& builder, const CandidateEvalOptions& opt) {
  const auto t0 = Clock::now();
  CandidateReport rep;
  const std::optional<aoc::package::CaseSet> set = aoc::package::parse_case_set(opt.case_set);
  // The hidden cases are generated here, in the parent, from the package's [hidden] parameters.
  aoc::package::OpPackage with_set;
  if (set && *set != aoc::package::CaseSet::Public) {
    try {
      with_set = aoc::package::with_case_set(cand.package, *set, opt.hidden);
    } catch (const std::exception& e) {
      rep.op = cand.package.name;
      rep.verdict = Verdict::Error;
      rep.message = std::string("generating the hidden cases: ") + e.what();
      return rep;
    }
  }
  const aoc::package::OpPackage& p = set && *set != aoc::package::CaseSet::Public ? with_set : cand.package;
  rep.op = p.name;
  rep.candidate_dir = cand.dir.string();
  rep.package_dir = p.dir.string();
  rep.candidate_hash = cand.hash;
  rep.seed = opt.seed;
  rep.soc = opt.soc;
  rep.case_set = opt.case_set;
  rep.config = opt.config;
  rep.trials = opt.trials;
  auto done = [&](Verdict v, std::string msg) {
    rep.verdict = v;
    rep.message = std::move(msg);
    rep.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    return rep;
  };

  std::string error;
  if (!set) return done(Verdict::Error, "unknown case set '" + opt.case_set + "'; use public, hidden or all");
  if (std::string bad = temp_root_problem(opt.temp_root); !bad.empty()) return done(Verdict::Error, bad);
  const std::vector<size_t> selected = select_cases(p, opt, error);
  if (selected.empty()) return done(Verdict::Error, error);

  auto refuse = [&]() {
    return done(Verdict::Rejected, rep.findings.front().message() +
                                       (rep.findings.size() > 1 ? " (and " + std::to_string(rep.findings.size() - 1) +
                                                                      " more findings)" : ""));
  };
  const fs::path headers = builder.options().root / "include" / "ascendc";
  // The -I folders of kernel_build_request in its order, and what includes may reach.
  const IncludeScope includes{{headers, cand.sources.host, cand.sources.kernel},
                              {cand.sources.host, cand.sources.kernel, p.dir, headers}};
  std::string api_parse_error;
  if (opt.check_sources) {
    rep.findings = check_sources({cand.sources.host, cand.sources.kernel}, &includes);
    if (!rep.findings.empty()) return refuse();
    // The names the candidate's code spells (eval/api_use_check.h). Sources clang cannot parse
    // are judged after the build: broken code is a compile_error, code only g++ reads is refused.
    try {
      ApiCheckOutcome api = check_api_use(cand, opt.api_checker, builder.options().root, builder.options().cache_dir,
                                          builder.options().shared_caches, builder.options().precompiled_headers);
      rep.findings = std::move(api.findings);
      api_parse_error = std::move(api.parse_error);
    } catch (const ApiCheckUnavailable& e) {
      return done(Verdict::Error, e.what());
    }
    if (!rep.findings.empty()) return refuse();
  }

  Setup s;
  s.p = &p;
  if (!opt.soc.empty()) {
    try {
      s.soc = std::make_unique<aoc::sim::Soc>(aoc::sim::load_soc(opt.soc));
    } catch (const std::exception& e) {
      return done(Verdict::Error, e.what());
    }
  }
  // Every dtype variant's kernel and the two goldens build at once (most are cache lookups; a
  // rewritten kernel compiles one unit per variant). Failures are reported in the order the
  // builds would run one after the other: the first case's variant first, the goldens last.
  const fs::path root = builder.options().root;
  std::vector<size_t> variants;
  for (size_t i : selected)
    if (std::find(variants.begin(), variants.end(), p.cases[i].variant) == variants.end())
      variants.push_back(p.cases[i].variant);
  const bool has_golden = fs::exists(p.golden_source());
  std::vector<build::BuildResult> built;
  try {
    std::vector<build::BuildRequest> requests;
    for (size_t v : variants) requests.push_back(build::kernel_build_request(p, v, cand.sources, root));
    if (has_golden) {
      requests.push_back(build::golden_build_request(p, root));
      requests.push_back(build::golden_build_request(p, root, true));
    }
    built = builder.build_all(requests);
  } catch (const std::exception& e) {
    return done(Verdict::Error, std::string("building the candidate: ") + e.what());
  }
  for (const build::BuildResult& b : built)
    if (rep.build_isolation.empty()) rep.build_isolation = b.isolation;
  for (size_t k = 0; k < variants.size(); ++k) {
    const build::BuildResult& b = built[k];
    if (!b.ok) {
      rep.diagnostics = build::errors_only(b.diagnostics);
      return done(Verdict::CompileError, p.name + " " + p.variant_label(variants[k]) + " " +
                                             failing_part(b, cand.sources) + ": " + b.first_error());
    }
    s.kernel_sos[variants[k]] = b.library;
    s.source_names[variants[k]] = {b.staged_dirs, b.source_dirs};
  }
  if (!api_parse_error.empty())
    return done(Verdict::Rejected, "the API-use check cannot judge sources it cannot parse: " + api_parse_error);
  try {
    if (!has_golden)
      return done(Verdict::Error, "the package " + p.name + " has no " + p.golden_source().string() +
                                      ": write its reference (docs/op-package.md, \"golden.cpp\")");
    const build::BuildResult& g = built[variants.size()];
    const build::BuildResult& gsp = built[variants.size() + 1];
    if (!g.ok || !gsp.ok) return done(Verdict::Error, "the golden of " + p.name + " does not build: " +
                                                          (g.ok ? gsp : g).first_error());
    s.golden = {g.library, gsp.library};
    // The golden libraries are named by their content (their file names: the same in any cache
    // folder, a shared one included); op.toml gives the cases' value ranges.
    base::ContentHash scope;
    scope.add(g.library.filename().string()).add(gsp.library.filename().string()).add_file(p.toml_path);
    scope.add(opt.case_set).add(std::to_string(opt.hidden.seed)).add(std::to_string(opt.hidden.count));
    scope.add(std::to_string(opt.hidden.max_elements)).add(std::to_string(opt.seed));
    s.reference_scope = scope.hex();
    s.references_on_disk = ReferenceFiles::in_cache(builder.options().cache_dir, builder.options().shared_caches);
    if (!opt.reference_dir.empty()) s.references_on_disk = ReferenceFiles(opt.reference_dir, s.references_on_disk->max_bytes());
  } catch (const std::exception& e) {
    return done(Verdict::Error, e.what());
  }
  if (std::string err = output_shapes(p, selected, builder, opt.limits.wall_seconds, s); !err.empty())
    return done(Verdict::Error, err);

  for (size_t i : selected) {
    try {
      rep.cases.push_back(run_one_case(s, i, opt, rep.isolation));
      name_candidate_files(rep.cases.back(), s.source_names[p.cases[i].variant]);
      rep.network_isolated = rep.isolation == "namespaces";
    } catch (const std::bad_alloc&) {
      CaseResult cr;
      cr.name = p.cases[i].name;
      cr.verdict = Verdict::Error;
      cr.message = "evaluator: out of memory preparing the case's buffers (inputs, outputs, reference); shrink the case "
                   "or run fewer candidates at once";
      rep.cases.push_back(std::move(cr));
    } catch (const std::exception& e) {
      CaseResult cr;
      cr.name = p.cases[i].name;
      cr.verdict = Verdict::Error;
      cr.message = std::string("evaluator: ") + e.what();
      rep.cases.push_back(std::move(cr));
    }
    if (opt.stop_at_failure && rep.cases.back().verdict != Verdict::Ok) break;
  }
  summarise(rep);
  rep.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return rep;
}

namespace {

json check_json(const aoc::package::OutputCheck& o) {
  return {{"name", o.name},
          {"shape", o.shape},
          {"pass", o.cmp.pass},
          {"max_rel", o.cmp.max_rel},
          {"mean_rel", o.cmp.mean_rel},
          {"tau", o.cmp.tau},
          {"worst_index", o.cmp.worst_index},
          {"worst_at", aoc::package::index_to_string(o.cmp.worst_index, o.shape)},
          {"worst_actual", o.cmp.worst_actual},
          {"worst_expected", o.cmp.worst_expected},
          {"nan_mismatch", o.cmp.nan_mismatch},
          {"inf_mismatch", o.cmp.inf_mismatch},
          {"unwritten", o.cmp.poisoned},
          {"reason", o.cmp.reason}};
}

template <typename T>
json opt_json(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

}  // namespace

json to_json(const CandidateReport& r) {
  json j = {{"op", r.op},
            {"candidate", r.candidate_dir},
            {"package", r.package_dir},
            {"candidate_hash", r.candidate_hash},
            {"seed", r.seed},
            {"soc", r.soc},
            {"cases_set", r.case_set},
            {"verdict", to_string(r.verdict)},
            {"message", r.message},
            {"network_isolated", r.network_isolated},
            {"isolation", r.isolation},
            {"build_isolation", r.build_isolation},
            {"from_store", r.from_store},
            {"seconds", r.seconds}};
  if (r.trials != 2) j["trials"] = r.trials;
  if (!r.config.empty()) j["config"] = to_json(r.config);
  j["diagnostics"] = json::array();
  for (const auto& d : r.diagnostics)
    j["diagnostics"].push_back({{"file", d.file}, {"line", d.line}, {"column", d.column}, {"severity", d.severity},
                                {"message", d.message}});
  j["findings"] = json::array();
  for (const auto& f : r.findings)
    j["findings"].push_back(
        {{"file", f.file}, {"line", f.line}, {"column", f.column}, {"rule", f.rule}, {"text", f.text}, {"advice", f.advice}});
  j["cases"] = json::array();
  for (const auto& c : r.cases) {
    json cj = {{"name", c.name},          {"dtype", c.dtype},       {"shapes", c.shapes},
               {"verdict", to_string(c.verdict)}, {"pass", c.verdict == Verdict::Ok}, {"message", c.message},
               {"block_dim", c.block_dim}, {"tiling_key", c.tiling_key}, {"task_duration_us", opt_json(c.sim_us)},
               {"t_hw_us", opt_json(c.t_hw_us)}, {"write_bound_us", opt_json(c.write_bound_us)}, {"bound", c.bound}, {"wall_ms", c.wall_ms}, {"phase_ms", c.phase_ms},
               {"skipped_instructions", c.skipped_instructions}};
    if (!c.error_file.empty()) cj["error_at"] = c.error_file + ":" + std::to_string(c.error_line);
    if (!c.profile.empty()) cj["profile"] = {{"fields", c.profile}, {"bound_pipe", c.bound_pipe}};
    if (c.platform_reads & kPlatformReadsCores) cj["platform_reads"].push_back("cores");
    if (c.platform_reads & kPlatformReadsUb) cj["platform_reads"].push_back("ub_bytes");
    if (!c.tiling_digest.empty()) cj["tiling_digest"] = c.tiling_digest;
    if (c.config_read_by_kernel) cj["config_read_by_kernel"] = true;
    if (!c.knobs.empty()) {
      cj["knobs"] = json::array();
      for (const auto& k : c.knobs) cj["knobs"].push_back(to_json(k));
    }
    cj["outputs"] = json::array();
    for (const auto& o : c.outputs) cj["outputs"].push_back(check_json(o));
    j["cases"].push_back(std::move(cj));
  }
  return j;
}

namespace {

// A double written by to_json: NaN and the infinities are written as null (JSON has no such
// numbers), e.g. the worst actual value of an output full of NaN; they read back as NaN.
double number_or_nan(const json& j, const char* key) {
  const json& v = j.at(key);
  return v.is_null() ? std::numeric_limits<double>::quiet_NaN() : v.get<double>();
}

}  // namespace

CandidateReport report_from_json(const json& j) {
  CandidateReport r;
  r.op = j.at("op");
  r.candidate_dir = j.at("candidate");
  r.package_dir = j.at("package");
  r.candidate_hash = j.at("candidate_hash");
  r.seed = j.at("seed");
  r.soc = j.at("soc");
  r.case_set = j.at("cases_set");
  r.verdict = parse_verdict(j.at("verdict").get<std::string>()).value_or(Verdict::Error);
  r.message = j.at("message");
  r.network_isolated = j.at("network_isolated");
  r.isolation = j.value("isolation", "");
  r.build_isolation = j.value("build_isolation", "");
  r.trials = j.value("trials", 2);
  if (j.contains("config")) r.config = tuning_config_from_json(j.at("config"));
  r.seconds = j.at("seconds");
  for (const auto& d : j.at("diagnostics"))
    r.diagnostics.push_back({d.at("file"), d.at("line"), d.at("column"), d.at("severity"), d.at("message")});
  for (const auto& f : j.at("findings"))
    r.findings.push_back({f.at("file"), f.at("line"), f.at("rule"), f.at("text"), f.value("column", 0),
                          f.value("advice", std::string())});
  for (const auto& cj : j.at("cases")) {
    CaseResult c;
    c.name = cj.at("name");
    c.dtype = cj.at("dtype");
    c.shapes = cj.at("shapes");
    c.verdict = parse_verdict(cj.at("verdict").get<std::string>()).value_or(Verdict::Error);
    c.message = cj.at("message");
    c.block_dim = cj.at("block_dim");
    c.tiling_key = cj.at("tiling_key");
    if (!cj.at("task_duration_us").is_null()) c.sim_us = cj.at("task_duration_us").get<double>();
    if (!cj.at("t_hw_us").is_null()) c.t_hw_us = cj.at("t_hw_us").get<double>();
    if (cj.contains("write_bound_us") && !cj.at("write_bound_us").is_null())
      c.write_bound_us = cj.at("write_bound_us").get<double>();
    c.bound = cj.at("bound");
    c.skipped_instructions = cj.value("skipped_instructions", uint64_t(0));
    c.wall_ms = cj.at("wall_ms");
    c.phase_ms = cj.value("phase_ms", std::map<std::string, double>{});
    if (cj.contains("profile")) {
      c.profile = cj.at("profile").at("fields").get<std::map<std::string, double>>();
      c.bound_pipe = cj.at("profile").at("bound_pipe").get<std::string>();
    }
    for (const auto& k : cj.value("knobs", json::array())) c.knobs.push_back(knob_decl_from_json(k));
    for (const auto& what : cj.value("platform_reads", json::array()))
      c.platform_reads |= what == "cores" ? kPlatformReadsCores : what == "ub_bytes" ? kPlatformReadsUb : 0u;
    c.tiling_digest = cj.value("tiling_digest", std::string());
    c.config_read_by_kernel = cj.value("config_read_by_kernel", false);
    for (const auto& o : cj.at("outputs")) {
      aoc::package::OutputCheck oc;
      oc.name = o.at("name");
      oc.shape = o.at("shape").get<std::vector<int64_t>>();
      oc.cmp.pass = o.at("pass");
      oc.cmp.max_rel = number_or_nan(o, "max_rel");
      oc.cmp.mean_rel = number_or_nan(o, "mean_rel");
      oc.cmp.tau = number_or_nan(o, "tau");
      oc.cmp.worst_index = o.at("worst_index");
      oc.cmp.worst_actual = number_or_nan(o, "worst_actual");
      oc.cmp.worst_expected = number_or_nan(o, "worst_expected");
      oc.cmp.nan_mismatch = o.at("nan_mismatch");
      oc.cmp.inf_mismatch = o.at("inf_mismatch");
      oc.cmp.poisoned = o.at("unwritten");
      oc.cmp.reason = o.at("reason");
      c.outputs.push_back(std::move(oc));
    }
    r.cases.push_back(std::move(c));
  }
  return r;
}

}  // namespace aoc::eval
