#include "ops/case_runner.h"

#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>

#include "aoc/error.h"
#include "aoc/host/tiling_context.h"
#include "ops/case_inputs.h"
#include "runtime/large_buffer.h"
#include "runtime/launcher.h"
#include "sim/chrome_trace.h"
#include "sim/engine.h"
#include "sim/profile.h"

namespace aoc::op {

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::Pass: return "pass";
    case Verdict::Fail: return "fail";
    case Verdict::Error: return "error";
    case Verdict::Race: return "race";
  }
  return "?";
}

aoc::host::PlatformConfig platform_for(const aoc::sim::Soc& soc) {
  aoc::host::PlatformConfig cfg = aoc::host::current_platform();
  cfg.soc_version = soc.name;
  if (soc.aiv_cores > 0) cfg.aiv_cores = static_cast<uint32_t>(soc.aiv_cores);
  if (soc.aic_cores > 0) cfg.aic_cores = static_cast<uint32_t>(soc.aic_cores);
  cfg.ub_bytes = soc.limits.ub_bytes;
  cfg.l1_bytes = soc.limits.l1_bytes;
  cfg.l0a_bytes = soc.limits.l0a_bytes;
  cfg.l0b_bytes = soc.limits.l0b_bytes;
  cfg.l0c_bytes = soc.limits.l0c_bytes;
  if (soc.clock_ghz > 0) cfg.clock_ghz = soc.clock_ghz;
  return cfg;
}

namespace {

ge::DataType ge_type(ElemType t) { return static_cast<ge::DataType>(info(t).ge_value); }

ge::Format ge_format(const std::string& f) {
  if (f == "NCHW") return ge::FORMAT_NCHW;
  if (f == "NHWC") return ge::FORMAT_NHWC;
  if (f == "FRACTAL_NZ") return ge::FORMAT_FRACTAL_NZ;
  return ge::FORMAT_ND;
}

void add_attr(aoc::host::NodeDesc& node, const AttrValue& v) {
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

std::string describe_shapes(const OpPackage& p, const CaseSpec& c) {
  std::ostringstream os;
  for (size_t i = 0; i < p.inputs.size(); ++i)
    os << (i ? " " : "") << p.inputs[i].name << "=" << shape_to_string(c.shapes.at(p.inputs[i].name));
  return os.str();
}

}  // namespace

namespace {

// Timing phase: Task Duration, the msprof-like profile, T_HW and, when asked, the trace.
void simulate_case(const aoc::sim::Soc& soc, const std::vector<aoc::sim::BlockTrace>& blocks,
                   const std::vector<const aoc::Trace*>& traces, const std::string& chrome_trace_path,
                   CaseOutcome& out) {
  try {
    aoc::sim::EngineOptions eo;
    eo.record_spans = !chrome_trace_path.empty();
    const aoc::sim::SimResult sim = aoc::sim::simulate(soc, blocks, eo);
    out.sim_us = sim.task_duration_us;
    out.profile = aoc::sim::make_profile(soc, sim);
    out.sim_profile = out.profile->fields;
    out.hw_limit = aoc::sim::hw_limit(soc, aoc::sim::work_from_traces(soc, blocks));
    if (!chrome_trace_path.empty()) {
      std::ofstream f(chrome_trace_path);
      if (!f) throw std::runtime_error("cannot write the trace file " + chrome_trace_path);
      aoc::sim::write_chrome_trace(f, soc, traces, sim);
    }
  } catch (const std::exception& e) {
    out.sim_error = e.what();
  }
}

}  // namespace

CaseOutcome run_case(const OpPackage& p, size_t case_index, const KernelLibrary& kernel, const Goldens& goldens,
                     const CaseOptions& opt) {
  const auto t0 = std::chrono::steady_clock::now();
  const CaseSpec& c = p.cases.at(case_index);
  CaseOutcome out;
  out.name = c.name;
  out.dtype = p.variant_label(c.variant);
  out.shapes = describe_shapes(p, c);
  auto finish = [&]() -> CaseOutcome {
    out.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return out;
  };

  std::vector<CaseTensor> inputs = make_case_inputs(p, case_index, opt.seed);

  // Host side: the operator's TilingFunc on a context describing this case.
  aoc::host::NodeDesc node(p.op_type);
  for (size_t i = 0; i < p.inputs.size(); ++i)
    node.Input(gert::StorageShape(gert::Shape(inputs[i].shape)), ge_type(p.inputs[i].dtypes[c.variant]),
               ge_format(p.inputs[i].format));
  for (size_t o = 0; o < p.outputs.size(); ++o)
    node.Output(gert::StorageShape(gert::Shape(p.output_shape(c, o))), ge_type(p.outputs[o].dtypes[c.variant]),
                ge_format(p.outputs[o].format));
  for (const auto& [name, v] : p.case_attrs(c)) add_attr(node, v);
  gert::TilingContext ctx(std::move(node), opt.platform);
  ge::graphStatus st = ge::GRAPH_FAILED;
  try {
    st = kernel.tiling()(&ctx);
  } catch (const aoc::KernelError& e) {
    out.message = std::string("tiling function: ") + e.what();
    out.error_file = e.file();
    out.error_line = e.line();
    return finish();
  } catch (const std::exception& e) {
    out.message = std::string("tiling function threw: ") + e.what();
    return finish();
  }
  if (st != ge::GRAPH_SUCCESS) {
    out.message = "tiling function returned failure (status " + std::to_string(st) + ") for " + out.shapes;
    return finish();
  }
  out.block_dim = ctx.GetBlockDim();
  out.tiling_key = ctx.GetTilingKey();
  if (out.block_dim == 0) {
    out.message = "tiling function left blockDim at 0: call context->SetBlockDim(n)";
    return finish();
  }

  // GM: inputs, outputs (poisoned), workspace, tiling (exactly the bytes written,
  // so a kernel reading a bigger struct than the host wrote is caught).
  std::vector<aoc::rt::GmBuffer> bufs;
  std::vector<aoc::rt::GmArg> args;
  for (const auto& t : inputs) {
    bufs.emplace_back(t.data.bytes.data(), t.data.bytes.size(), 0);
    args.push_back(aoc::rt::GmArg{bufs.back().mem.get(), t.data.bytes.size(), t.name});
  }
  std::vector<TypedBuffer> results;
  for (size_t o = 0; o < p.outputs.size(); ++o) {
    results.emplace_back(p.outputs[o].dtypes[c.variant], static_cast<size_t>(element_count(p.output_shape(c, o))));
    bufs.emplace_back(nullptr, results.back().bytes.size(), kPoisonByte);
    args.push_back(aoc::rt::GmArg{bufs.back().mem.get(), results.back().bytes.size(), p.outputs[o].name});
  }
  size_t ws = 0;
  for (size_t s : ctx.workspace_sizes()) ws += s;
  bufs.emplace_back(nullptr, ws, 0);
  args.push_back(aoc::rt::GmArg{bufs.back().mem.get(), ws, "workspace"});
  const size_t tiling_bytes = ctx.GetRawTilingData()->GetDataSize();
  bufs.emplace_back(ctx.GetRawTilingData()->GetData(), tiling_bytes, 0);
  args.push_back(aoc::rt::GmArg{bufs.back().mem.get(), tiling_bytes, "tiling", /*direct=*/true});

  aoc::rt::LaunchConfig cfg;
  cfg.block_dim = out.block_dim;
  cfg.tiling_key = out.tiling_key;
  cfg.mode = aoc::rt::CoreMode::AIV;
  if (opt.soc != nullptr) cfg.limits = opt.soc->limits;
  else cfg.limits.ub_bytes = static_cast<uint32_t>(opt.platform.ub_bytes);
  cfg.record_trace = true;  // the hazard checker reads the traces even without timing
  aoc::rt::LaunchResult launch = aoc::rt::launch_kernel(cfg, kernel.kernel(), args);
  for (const auto& [msg, n] : launch.warnings)
    out.warnings.push_back(msg + (n > 1 ? " (" + std::to_string(n) + " times)" : ""));
  if (!launch.ok) {
    out.message = launch.error;
    out.error_file = launch.failed_file;
    out.error_line = launch.failed_line;
    return finish();
  }

  if (opt.on_traces) opt.on_traces(launch.cores);

  // Outputs back from GM, then the golden on the same inputs.
  for (size_t o = 0; o < p.outputs.size(); ++o) {
    const aoc::rt::GmBuffer& b = bufs[p.inputs.size() + o];
    std::memcpy(results[o].bytes.data(), b.mem.get(), results[o].bytes.size());
  }
  const GoldenLibrary::Inputs golden_inputs(inputs);
  GoldenLibrary::Result ref = goldens.reference->run(p, c, golden_inputs);
  if (!ref.ok) {
    out.message = ref.error;
    return finish();
  }
  GoldenLibrary::Deferred cpu(goldens.same_precision, p, c, golden_inputs);
  const std::vector<CompareResult> checks = compare_outputs(results, ref.outputs, p.tolerance, kPoisonByte,
                                                            [&] { return cpu.outputs(); });
  out.verdict = Verdict::Pass;
  for (size_t o = 0; o < p.outputs.size(); ++o) {
    OutputCheck chk{p.outputs[o].name, p.output_shape(c, o), checks[o]};
    if (!chk.cmp.pass) {
      out.verdict = Verdict::Fail;
      if (out.message.empty())
        out.message = "output " + chk.name + ": " + chk.cmp.reason + " (worst at " +
                      index_to_string(chk.cmp.worst_index, chk.shape) + ")";
    }
    out.outputs.push_back(std::move(chk));
  }

  std::vector<const aoc::Trace*> traces;
  std::vector<aoc::sim::BlockTrace> blocks;
  for (const auto& core : launch.cores) {
    traces.push_back(&core.trace);
    for (const auto& r : core.trace.records) {
      if (r.kind == aoc::RecKind::Scalar) out.kernel_blocks += r.kernel_blocks;
      else ++out.api_records;
    }
    blocks.push_back(aoc::sim::BlockTrace{&core.trace, core.core_type == 1 ? aoc::sim::CoreType::AIC
                                                                           : aoc::sim::CoreType::AIV});
  }
  out.hazards = aoc::sim::check_hazards(traces);
  if (!out.hazards.empty()) {
    out.verdict = Verdict::Race;
    out.message = out.hazards.front().message();
    if (out.hazards.size() > 1) out.message += " (+" + std::to_string(out.hazards.size() - 1) + " more)";
  }
  if (opt.soc != nullptr) simulate_case(*opt.soc, blocks, traces, opt.chrome_trace_path, out);
  return finish();
}

}  // namespace aoc::op
