// What the evaluator and the aoc-harness child exchange through the child's private
// folder: request.json (the kernel library copied into the folder, the tensors of ONE
// case, attributes, SoC name), the input files of each trial, output files pre-filled
// with the poison pattern, and back: result.json (per-trial status) plus each trial's
// per-core instruction traces. The child never sees the golden, other cases or the
// result store: nothing in the folder names them.
#pragma once
#include <cstdint>
#include <deque>
#include <filesystem>
#include <string>
#include <vector>

#include "ops/dtype.h"
#include "ops/op_package.h"
#include "runtime/launcher.h"

namespace aoc::eval {

struct WireTensor {
  std::string name;
  std::vector<int64_t> shape;
  aoc::op::ElemType dtype = aoc::op::ElemType::F32;
  std::string format = "ND";
};

struct HarnessRequest {
  std::string library = "kernel.so";  // relative to the folder
  std::string kernel_symbol;
  std::string op_type;
  std::string soc;  // empty: no traces, default platform
  std::vector<WireTensor> inputs, outputs;
  std::vector<std::pair<std::string, aoc::op::AttrValue>> attrs;  // OpDef order, defaults filled in
  int trials = 1;
};

struct TrialStatus {
  // "ok", "tiling_error", "kernel_error", "memory_limit", "not_run"
  std::string status = "not_run";
  std::string message;
  std::string file;
  unsigned line = 0;
  uint32_t block_dim = 0;
  uint64_t tiling_key = 0;
};

std::filesystem::path input_file(const std::filesystem::path& dir, int trial, size_t i);
std::filesystem::path output_file(const std::filesystem::path& dir, int trial, size_t o);
std::filesystem::path trace_file(const std::filesystem::path& dir, int trial);

void write_request(const std::filesystem::path& dir, const HarnessRequest& r);
HarnessRequest read_request(const std::filesystem::path& dir);  // throws std::runtime_error
void write_statuses(const std::filesystem::path& dir, const std::vector<TrialStatus>& s);
// Empty when the child wrote no (or no readable) result.
std::vector<TrialStatus> read_statuses(const std::filesystem::path& dir);

void write_bytes(const std::filesystem::path& p, const void* data, size_t n);
std::vector<unsigned char> read_bytes(const std::filesystem::path& p);  // throws when unreadable

// Per-core traces with their strings (API names, source files) owned by the set.
struct TraceSet {
  std::deque<std::string> strings;
  std::vector<aoc::rt::CoreRun> cores;
};
void write_traces(const std::filesystem::path& p, const std::vector<aoc::rt::CoreRun>& cores);
// Throws std::runtime_error on a malformed file (the child is not trusted).
TraceSet read_traces(const std::filesystem::path& p);

}  // namespace aoc::eval
