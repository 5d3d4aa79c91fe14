#include "eval/kernel_exec.h"

#include <sys/resource.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <mutex>

#include "aoc/error.h"
#include "aoc/macros.h"
#include "aoc/host/tiling_context.h"
#include "base/content_hash.h"
#include "eval/case_size.h"
#include "package/case_inputs.h"
#include "package/output_check.h"
#include "runtime/large_buffer.h"

namespace aoc::eval {

namespace {

ge::DataType ge_type(aoc::package::ElemType t) { return static_cast<ge::DataType>(aoc::package::info(t).ge_value); }

ge::Format ge_format(const std::string& f) {
  if (f == "NCHW") return ge::FORMAT_NCHW;
  if (f == "NHWC") return ge::FORMAT_NHWC;
  if (f == "FRACTAL_NZ") return ge::FORMAT_FRACTAL_NZ;
  return ge::FORMAT_ND;
}

void add_attr(aoc::host::NodeDesc& node, const aoc::package::AttrValue& v) {
  std::visit([&](const auto& x) {
    using T = std::decay_t<decltype(x)>;
    if constexpr (std::is_same_v<T, std::vector<double>>) {
      std::vector<float> f(x.begin(), x.end());
      node.Attr(f);
    } else {
      node.Attr(x);
    }
  }, v);
}

struct KnobRegistry {
  std::mutex mu;
  std::map<std::string, int64_t> values;
  std::vector<KnobDecl> declared;
  std::string domain_error;
  uint32_t platform_reads = 0;  // kPlatformReads* bits since the last set_knob_values
  bool kernel_running = false;  // the tiling returned and the kernel was launched
  bool read_by_kernel = false;  // a knob or platform number was asked for while it ran
};

KnobRegistry& registry() {
  static KnobRegistry r;
  return r;
}

// The cores' printed text, core by core in launch order, each line prefixed with its core. Bytes
// other than printable ASCII, tab and newline become '?': the text travels in JSON, and a
// kernel's printf of a binary buffer must not stop the case.
std::string printed_by_cores(const std::vector<aoc::runtime::CoreRun>& cores) {
  std::string out;
  for (const auto& c : cores) {
    if (c.printed.empty()) continue;
    const std::string prefix =
        std::string("[") + (c.core_type == AscendC::AIC ? "AIC" : "AIV") + "-" + std::to_string(c.block_idx) + "] ";
    bool line_start = true;
    for (const char ch : c.printed) {
      if (line_start) out += prefix;
      const auto b = static_cast<unsigned char>(ch);
      out += (b == '\n' || b == '\t' || (b >= 0x20 && b < 0x7f)) ? ch : '?';
      line_start = ch == '\n';
    }
    if (!line_start) out += '\n';
  }
  return out;
}

}  // namespace

bool knob_allows(const KnobDecl& k, int64_t v) {
  if (!k.is_range) return std::find(k.values.begin(), k.values.end(), v) != k.values.end();
  const int64_t lo = k.values[0], hi = k.values[1], step = k.values[2] > 0 ? k.values[2] : 1;
  return v >= lo && v <= hi && (v - lo) % step == 0;
}

void set_knob_values(const std::map<std::string, int64_t>& values) {
  KnobRegistry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  r.values = values;
  r.declared.clear();
  r.domain_error.clear();
  r.platform_reads = 0;
  r.kernel_running = false;
  r.read_by_kernel = false;
}

std::vector<KnobDecl> knob_declarations() {
  KnobRegistry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  return r.declared;
}

std::string knob_domain_error() {
  KnobRegistry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  return r.domain_error;
}

void set_kernel_running(bool running) {
  KnobRegistry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  r.kernel_running = running;
}

bool config_read_by_kernel() {
  KnobRegistry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  return r.read_by_kernel;
}

uint32_t platform_reads() {
  KnobRegistry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  return r.platform_reads;
}

}  // namespace aoc::eval

// Called by tiling/tuning_knobs.h inside tiling functions loaded into this process.
extern "C" __attribute__((visibility("default"))) int aoc_tuning_knob(const char* name, long long defaultValue, int kind,
                                                                    const long long* values, unsigned long count,
                                                                    int role, long long* chosen) {
  using namespace aoc::eval;
  if (name == nullptr || chosen == nullptr) return 0;
  KnobDecl d;
  d.name = name;
  d.default_value = defaultValue;
  d.is_range = kind == 1;
  d.role = role;
  if (values != nullptr) d.values.assign(values, values + count);
  if (d.is_range && d.values.size() != 3) return 0;  // malformed: the default stands
  KnobRegistry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  if (r.kernel_running) r.read_by_kernel = true;
  const bool seen = std::any_of(r.declared.begin(), r.declared.end(), [&](const KnobDecl& k) { return k.name == d.name; });
  if (!seen) r.declared.push_back(d);
  const auto it = r.values.find(d.name);
  if (it == r.values.end()) return 0;
  if (!knob_allows(d, it->second)) {
    if (r.domain_error.empty())
      r.domain_error = "knob " + d.name + " = " + std::to_string(it->second) + " is outside its declared domain";
    return 0;
  }
  *chosen = it->second;
  return 1;
}

// Called by tiling/platform/platform_ascendc.h when a tiling function reads a core count (1)
// or the UB size (2).
extern "C" __attribute__((visibility("default"))) void aoc_platform_read(int what) {
  using namespace aoc::eval;
  KnobRegistry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  if (r.kernel_running) r.read_by_kernel = true;
  r.platform_reads |= static_cast<uint32_t>(what) & (kPlatformReadsCores | kPlatformReadsUb);
}

namespace aoc::eval {

KernelRun execute_kernel(const HarnessRequest& req, const aoc::package::KernelLibrary& lib,
                         const std::vector<InputBytes>& inputs, const aoc::host::PlatformConfig& platform,
                         const aoc::CoreLimits& limits, bool record_trace) {
  KernelRun run;
  TrialStatus& st = run.status;
  aoc::host::NodeDesc node(req.op_type);
  for (const auto& t : req.inputs)
    node.Input(gert::StorageShape(gert::Shape(t.shape)), ge_type(t.dtype), ge_format(t.format));
  for (const auto& t : req.outputs)
    node.Output(gert::StorageShape(gert::Shape(t.shape)), ge_type(t.dtype), ge_format(t.format));
  for (const auto& [name, v] : req.attrs) add_attr(node, v);
  gert::TilingContext ctx(std::move(node), platform);
  ge::graphStatus gs = ge::GRAPH_FAILED;
  st.status = "tiling_error";
  set_knob_values(req.config.knobs);
  try {
    gs = lib.tiling()(&ctx);
    st.knobs = knob_declarations();
    st.platform_reads = platform_reads();
  } catch (const aoc::KernelError& e) {
    st.message = std::string("tiling function: ") + e.what();
    st.file = e.file();
    st.line = e.line();
    return run;
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    st.message = std::string("tiling function threw: ") + e.what();
    return run;
  }
  if (const std::string bad = knob_domain_error(); !bad.empty()) {
    st.message = bad;
    return run;
  }
  // Knobs the configuration sets but this case's tiling never asks for (a branch for
  // other shapes) are simply unused.
  if (gs != ge::GRAPH_SUCCESS) {
    st.message = "tiling function returned failure (status " + std::to_string(gs) + ")";
    return run;
  }
  st.block_dim = ctx.GetBlockDim();
  st.tiling_key = ctx.GetTilingKey();
  if (st.block_dim == 0) {
    st.message = "tiling function left blockDim at 0: call context->SetBlockDim(n)";
    return run;
  }
  const size_t tiling_bytes = ctx.GetRawTilingData()->GetDataSize();
  {
    base::ContentHash h;
    h.add(std::to_string(st.block_dim)).add(std::to_string(st.tiling_key));
    for (size_t s : ctx.workspace_sizes()) h.add(std::to_string(s));
    h.add(std::string_view(static_cast<const char*>(ctx.GetRawTilingData()->GetData()), tiling_bytes));
    st.tiling_digest = h.hex();
  }
  if (req.tiling_only) {
    st.status = "ok";
    return run;
  }

  // The workspace is the tiling function's to size: one this process could never allocate is
  // the candidate's memory verdict, named, rather than a failed allocation somewhere.
  long double ws_asked = 0;
  for (size_t s : ctx.workspace_sizes()) ws_asked += static_cast<long double>(s);
  rlimit as{};
  const uint64_t limit = getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY ? as.rlim_cur : 0;
  if ((limit != 0 && ws_asked > static_cast<long double>(limit)) ||
      ws_asked > static_cast<long double>(std::numeric_limits<size_t>::max() / 2)) {
    st.status = "memory_limit";
    st.message = "the tiling function asks for a workspace (GetWorkspaceSizes) of " +
                 (limit != 0 ? bytes_over_limit(ws_asked, limit)
                             : std::to_string(static_cast<unsigned long long>(ws_asked)) + " bytes, more than memory") +
                 "; size the workspace from the shapes";
    return run;
  }
  const size_t ws = static_cast<size_t>(ws_asked);

  // GM: inputs, outputs (as given: poisoned), workspace, and exactly the tiling bytes
  // the host wrote, so a kernel reading a bigger struct is caught. A buffer that cannot be
  // allocated under the address-space limit is named with its size.
  std::vector<aoc::runtime::GmBuffer>& bufs = run.gm;
  bufs.reserve(inputs.size() + req.outputs.size() + 2);
  std::vector<aoc::runtime::GmArg> args;
  // From `init`, or from the input file `from` when given; `fill` after.
  auto add = [&](const void* init, size_t bytes, const std::string& kind, const std::string& name, bool direct,
                 const InputBytes* from = nullptr, unsigned char fill = 0) {
    try {
      if (from != nullptr) bufs.emplace_back(from->fd, from->offset, bytes);
      else bufs.emplace_back(init, bytes, fill);
    } catch (const std::bad_alloc&) {
      st.status = "memory_limit";
      st.message = "allocating the " + kind + (name.empty() ? "" : " " + name) + " (" + std::to_string(bytes) +
                   " bytes) failed: with the buffers before it the case needs more than " +
                   (limit != 0 ? "the address-space limit of " + std::to_string(limit) + " bytes" : "the memory there is");
      return false;
    }
    args.push_back({bufs.back().mem.get(), bytes, name.empty() ? kind : name, direct});
    return true;
  };
  for (size_t i = 0; i < inputs.size(); ++i)
    if (!add(nullptr, inputs[i].bytes, "input", req.inputs[i].name, false, &inputs[i])) return run;
  for (const WireTensor& out : req.outputs) {
    const size_t bytes = static_cast<size_t>(aoc::package::element_count(out.shape)) * aoc::package::info(out.dtype).bytes;
    if (!add(nullptr, bytes, "output", out.name, false, nullptr, aoc::package::kPoisonByte)) return run;
  }
  if (!add(nullptr, ws, "workspace", "", false)) return run;
  if (!add(ctx.GetRawTilingData()->GetData(), tiling_bytes, "tiling", "", /*direct=*/true)) return run;

  aoc::runtime::LaunchConfig cfg;
  cfg.block_dim = st.block_dim;
  cfg.tiling_key = st.tiling_key;
  cfg.mode = aoc::runtime::CoreMode::AIV;
  cfg.limits = limits;
  cfg.record_trace = record_trace;
  set_kernel_running(true);
  aoc::runtime::LaunchResult launch = aoc::runtime::launch_kernel(cfg, lib.kernel(), args);
  set_kernel_running(false);
  st.config_read_by_kernel = config_read_by_kernel();
  st.printed = printed_by_cores(launch.cores);
  for (const auto& [msg, n] : launch.warnings)
    st.warnings.push_back(msg + (n > 1 ? " (" + std::to_string(n) + " times)" : ""));
  if (!launch.ok) {
    st.status = "kernel_error";
    st.message = launch.error;
    st.file = launch.failed_file;
    st.line = launch.failed_line;
    return run;
  }
  for (size_t o = 0; o < req.outputs.size(); ++o) {
    const aoc::runtime::GmBuffer& b = bufs[inputs.size() + o];
    run.outputs.emplace_back(b.mem.get(), b.bytes);
    const auto at = reinterpret_cast<uint64_t>(b.mem.get());
    run.output_spans.push_back({at, at + b.bytes});
  }
  st.status = "ok";
  run.cores = std::move(launch.cores);
  return run;
}

}  // namespace aoc::eval
