#include "eval/kernel_exec.h"

#include <cstdlib>
#include <cstring>
#include <memory>

#include "aoc/error.h"
#include "aoc/host/tiling_context.h"

namespace aoc::eval {

namespace {

// GM memory for one kernel argument, 512 B aligned like device allocations.
struct GmBuffer {
  struct Free {
    void operator()(unsigned char* p) const { std::free(p); }
  };
  std::unique_ptr<unsigned char, Free> mem;
  size_t bytes = 0;
  GmBuffer(const void* init, size_t n) : bytes(n) {
    const size_t rounded = (n + 511) / 512 * 512 + 512;
    mem.reset(static_cast<unsigned char*>(std::aligned_alloc(512, rounded)));
    if (!mem) throw std::bad_alloc();
    std::memset(mem.get(), 0, rounded);
    if (n > 0 && init != nullptr) std::memcpy(mem.get(), init, n);
  }
};

ge::DataType ge_type(aoc::op::ElemType t) { return static_cast<ge::DataType>(aoc::op::info(t).ge_value); }

ge::Format ge_format(const std::string& f) {
  if (f == "NCHW") return ge::FORMAT_NCHW;
  if (f == "NHWC") return ge::FORMAT_NHWC;
  if (f == "FRACTAL_NZ") return ge::FORMAT_FRACTAL_NZ;
  return ge::FORMAT_ND;
}

void add_attr(aoc::host::NodeDesc& node, const aoc::op::AttrValue& v) {
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

}  // namespace

KernelRun execute_kernel(const HarnessRequest& req, const aoc::op::KernelLibrary& lib,
                         const std::vector<std::vector<unsigned char>>& inputs,
                         std::vector<std::vector<unsigned char>> outputs, const aoc::host::PlatformConfig& platform,
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
  try {
    gs = lib.tiling()(&ctx);
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

  // GM: inputs, outputs (as given: poisoned), workspace, and exactly the tiling bytes
  // the host wrote, so a kernel reading a bigger struct is caught.
  std::vector<GmBuffer> bufs;
  bufs.reserve(inputs.size() + outputs.size() + 2);
  std::vector<aoc::rt::GmArg> args;
  for (size_t i = 0; i < inputs.size(); ++i) {
    bufs.emplace_back(inputs[i].data(), inputs[i].size());
    args.push_back({bufs.back().mem.get(), inputs[i].size(), req.inputs[i].name});
  }
  for (size_t o = 0; o < outputs.size(); ++o) {
    bufs.emplace_back(outputs[o].data(), outputs[o].size());
    args.push_back({bufs.back().mem.get(), outputs[o].size(), req.outputs[o].name});
  }
  size_t ws = 0;
  for (size_t s : ctx.workspace_sizes()) ws += s;
  bufs.emplace_back(nullptr, ws);
  args.push_back({bufs.back().mem.get(), ws, "workspace"});
  const size_t tiling_bytes = ctx.GetRawTilingData()->GetDataSize();
  bufs.emplace_back(ctx.GetRawTilingData()->GetData(), tiling_bytes);
  args.push_back({bufs.back().mem.get(), tiling_bytes, "tiling"});

  aoc::rt::LaunchConfig cfg;
  cfg.block_dim = st.block_dim;
  cfg.tiling_key = st.tiling_key;
  cfg.mode = aoc::rt::CoreMode::AIV;
  cfg.limits = limits;
  cfg.record_trace = record_trace;
  aoc::rt::LaunchResult launch = aoc::rt::launch_kernel(cfg, lib.kernel(), args);
  if (!launch.ok) {
    st.status = "kernel_error";
    st.message = launch.error;
    st.file = launch.failed_file;
    st.line = launch.failed_line;
    return run;
  }
  for (size_t o = 0; o < outputs.size(); ++o) {
    std::memcpy(outputs[o].data(), bufs[inputs.size() + o].mem.get(), outputs[o].size());
  }
  st.status = "ok";
  run.outputs = std::move(outputs);
  run.cores = std::move(launch.cores);
  return run;
}

}  // namespace aoc::eval
