// What the evaluator and the aoc-harness child exchange through the child's private
// folder: request.json (the kernel library copied into the folder, the tensors of ONE
// case, attributes, SoC name), the input files of each trial (in the folder, or the case's
// inputs file of the build cache, which the sandbox shows the child read-only), and back:
// the output files (the child starts its outputs from the poison pattern), result.json
// (per-trial status) plus the first trial's per-core instruction traces (with a SoC). The child
// never sees the golden, other cases or the result store: nothing it is shown names them.
#pragma once
#include <cstdint>
#include <deque>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "aoc/launch.h"
#include "eval/write_volume.h"
#include "package/dtype.h"
#include "package/op_package.h"

namespace aoc::eval {

struct WireTensor {
  std::string name;
  std::vector<int64_t> shape;
  aoc::package::ElemType dtype = aoc::package::ElemType::F32;
  std::string format = "ND";
};

// One knob a tiling function declared through tiling/tuning_knobs.h: its default and
// domain (a list of values, or lo..hi by step) and its role for profile-guided moves.
struct KnobDecl {
  std::string name;
  int64_t default_value = 0;
  bool is_range = false;
  std::vector<int64_t> values;  // the legal values, or {lo, hi, step} when is_range
  int role = 0;                 // tuning::Role
  bool operator==(const KnobDecl&) const = default;
};

// A tuning configuration: knob values (unset knobs keep their defaults) and what the
// platform reports to the tiling function (0 = the SoC's own number). The overrides must
// stay within the SoC: fewer vector cores, a smaller UB budget.
struct TuningConfig {
  std::map<std::string, int64_t> knobs;
  uint32_t cores = 0;
  uint64_t ub_bytes = 0;
  bool empty() const { return knobs.empty() && cores == 0 && ub_bytes == 0; }
  bool operator==(const TuningConfig&) const = default;
};

// Where one input's bytes lie outside the child's folder: a file the sandbox shows the child
// read-only (the inputs kept in the build cache, eval/reference_files.h).
struct InputSource {
  std::string path;
  uint64_t offset = 0;
  uint64_t bytes = 0;
  bool operator==(const InputSource&) const = default;
};

struct HarnessRequest {
  std::string library = "kernel.so";  // relative to the folder
  std::string kernel_symbol;
  std::string op_type;
  std::string soc;  // empty: no traces, default platform
  std::vector<WireTensor> inputs, outputs;
  // Per trial and input, where its bytes lie; empty: in the folder's input files (input_file).
  // Output files are not given: the child fills its output buffers with the poison byte itself.
  std::vector<std::vector<InputSource>> input_sources;
  std::vector<std::pair<std::string, aoc::package::AttrValue>> attrs;  // OpDef order, defaults filled in
  int trials = 1;
  TuningConfig config;  // absent from request.json when empty
  // Run the tiling function only and report its digest: no input files, no launch, no traces.
  bool tiling_only = false;
};

// Bits of TrialStatus::platform_reads: the tiling function read a core count / the UB size
// (the tuner varies only what the tiling reads).
constexpr uint32_t kPlatformReadsCores = 1, kPlatformReadsUb = 2;

struct TrialStatus {
  // "ok", "tiling_error", "kernel_error", "memory_limit", "not_run"
  std::string status = "not_run";
  std::string message;
  std::string file;
  unsigned line = 0;
  uint32_t block_dim = 0;
  uint64_t tiling_key = 0;
  std::vector<KnobDecl> knobs;  // declared by the tiling function (first trial only)
  uint32_t platform_reads = 0;  // kPlatformReads* bits (first trial only)
  // Everything the tiling function hands the kernel: blockDim, the tiling key, the workspace
  // sizes and the tiling bytes, hashed ("" when the tiling failed). The kernel library, the
  // inputs and this digest determine the kernel's run, unless the kernel itself asked for a
  // knob or a platform number (config_read_by_kernel).
  std::string tiling_digest;
  bool config_read_by_kernel = false;
  // Device-tolerated behaviour of the kernel (GM padding touched, a sync the toolchain inserts
  // ...), one line each with the number of times seen; they do not change the verdict.
  std::vector<std::string> warnings;
  // What the kernel printed (AscendC::printf, DumpTensor), core by core, each line prefixed
  // with its core ("[AIV-3] ..."); printable ASCII, other bytes shown as '?'.
  std::string printed;
};

std::filesystem::path input_file(const std::filesystem::path& dir, int trial, size_t i);
std::filesystem::path output_file(const std::filesystem::path& dir, int trial, size_t o);
std::filesystem::path trace_file(const std::filesystem::path& dir, int trial);

nlohmann::json to_json(const TuningConfig& c);
TuningConfig tuning_config_from_json(const nlohmann::json& j);  // throws std::runtime_error
nlohmann::json to_json(const KnobDecl& k);
KnobDecl knob_decl_from_json(const nlohmann::json& j);  // throws on malformed input

void write_request(const std::filesystem::path& dir, const HarnessRequest& r);
HarnessRequest read_request(const std::filesystem::path& dir);  // throws std::runtime_error
void write_statuses(const std::filesystem::path& dir, const std::vector<TrialStatus>& s);
// The same into an open file (the child opens its result files before its system-call filter
// takes away the right to open files for writing; eval/syscall_filter.h).
void write_statuses(int fd, const std::vector<TrialStatus>& s);
std::filesystem::path result_file(const std::filesystem::path& dir);
// Empty when the child wrote no (or no readable) result.
std::vector<TrialStatus> read_statuses(const std::filesystem::path& dir);

void write_bytes(const std::filesystem::path& p, const void* data, size_t n);
// Replaces the contents of the open file `fd`; `name` is for messages. Throws on failure.
void write_bytes(int fd, const void* data, size_t n, const std::string& name);
void write_fd(int fd, const void* data, size_t n, const std::string& name);  // appends at the offset
std::vector<unsigned char> read_bytes(const std::filesystem::path& p);  // throws when unreadable

// Per-core traces with their strings (API names, source files) owned by the set.
struct TraceSet {
  std::deque<std::string> strings;
  std::vector<aoc::runtime::CoreRun> cores;
  // Where each output lay in the child's memory (the addresses its records name), for the
  // parent's volume accounting (eval/write_volume.h). Written by the child, so checked there.
  std::vector<GmSpan> outputs;
};
// A zstd stream: a trace compresses about tenfold, so long kernels stay under the sandbox's
// file-size limit.
void write_traces(const std::filesystem::path& p, const std::vector<aoc::runtime::CoreRun>& cores,
                  const std::vector<GmSpan>& outputs = {});
void write_traces(int fd, const std::vector<aoc::runtime::CoreRun>& cores, const std::string& name,
                  const std::vector<GmSpan>& outputs = {});
// Throws std::runtime_error on a malformed file (the child is not trusted), or one that
// expands beyond 4 GiB.
TraceSet read_traces(const std::filesystem::path& p);

}  // namespace aoc::eval
