#include "api_rules.h"

#include <algorithm>

namespace aoc::rewrite {
namespace {

bool starts_with(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }

// The API's own namespaces: what a kernel or its tiling code is written against.
bool api_namespace(const std::string& outermost) {
  static const std::vector<std::string> names = {
      "AscendC", "optiling", "ge", "gert", "ops", "fe", "platform_ascendc", "matmul_tiling",
      "tuning",  // the tuner's knobs (tiling/tuning_knobs.h), read by host tiling code
      "std",     // numeric_limits<half> and the like, specialised by the headers
  };
  return std::find(names.begin(), names.end(), outermost) != names.end();
}

// `name` is `entry` or a member of it (std::numeric_limits::max under std::numeric_limits).
bool listed(const std::vector<std::string>& list, const std::string& name) {
  for (const auto& e : list)
    if (name == e || starts_with(name, e + "::")) return true;
  return false;
}

bool hook_name(const std::string& n) { return starts_with(n, "aoc_") || starts_with(n, "__aoc"); }

}  // namespace

const std::vector<std::string>& kernel_library_names() {
  // What the operators' kernels (ops/**/op_kernel) and the test kernels use, and little else:
  // arithmetic helpers, limits, type traits, fixed-width integers and <cmath> functions on
  // scalars. Nothing here reaches memory, files or the simulator.
  static const std::vector<std::string> names = {
      // <algorithm>, <cstdlib>, <utility>
      "std::min", "std::max", "std::abs", "std::swap",
      // <limits>, <type_traits>
      "std::numeric_limits", "std::is_same", "std::is_same_v", "std::conditional", "std::conditional_t",
      "std::enable_if", "std::enable_if_t", "std::is_floating_point", "std::is_floating_point_v",
      "std::is_integral", "std::is_integral_v", "std::is_signed", "std::is_signed_v", "std::is_unsigned",
      "std::is_unsigned_v", "std::remove_cv", "std::remove_cv_t", "std::remove_reference",
      "std::remove_reference_t", "std::remove_cvref", "std::remove_cvref_t", "std::decay", "std::decay_t",
      "std::integral_constant", "std::true_type", "std::false_type",
      // <cstddef>, <cstdint>
      "std::size_t", "std::ptrdiff_t", "std::int8_t", "std::int16_t", "std::int32_t", "std::int64_t",
      "std::uint8_t", "std::uint16_t", "std::uint32_t", "std::uint64_t", "size_t", "ptrdiff_t", "int8_t",
      "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t",
      // <cmath> on scalars
      "std::sqrt", "std::exp", "std::log", "std::fabs", "std::floor", "std::ceil", "std::pow", "std::tanh",
      "std::isnan", "std::isinf", "std::isfinite", "std::fmin", "std::fmax", "std::round", "std::erf",
      // the compiler's infinity and NaN constants (what INFINITY and NAN expand to)
      "__builtin_huge_valf", "__builtin_huge_val", "__builtin_inff", "__builtin_inf", "__builtin_nanf",
      "__builtin_nan",
  };
  return names;
}

const std::vector<std::string>& global_api_names() {
  // The names include/ascendc declares outside any namespace on purpose, as the device's
  // headers do: the half-precision types and their aliases, the core-type variable behind
  // ASCEND_IS_AIV, and the kernel types of KERNEL_TASK_TYPE.
  // The device's pipe and event enums, its block variables and buffer sizes, the advanced
  // APIs' tiling structs, and the float functions of the C math library kernel scalar code
  // calls (aoc/scalar_libm.h), and abs on an int (aoc/kernel_unit.h gives it C++ linkage). Not
  // aoc_default_tiling_type: GET_TILING_DATA's own. The machine-level vector intrinsics kernels call
  // on UB addresses (aoc/vec/isa.h), GetTPipePtr, which the device also declares globally, and the
  // function a kernel unit's printf calls go to (kernel_operator.h).
  static const std::vector<std::string> names = {
      "half", "bfloat16_t", "float16_t", "float32_t", "g_coreType", "KernelMetaType", "event_t", "pipe_t",
      "block_idx", "block_num", "sub_block_idx", "sub_block_num", "ASC_L0A_SIZE", "ASC_L0B_SIZE", "ASC_L0C_SIZE",
      "ASC_L1_SIZE", "ASC_UB_SIZE", "LayerNormSeparateTiling", "LayerNormTiling", "LogSoftMaxTiling",
      "RmsNormTiling", "SoftMaxTiling", "ceilf", "expf", "fabsf", "floorf", "fmaxf", "fminf", "logf", "powf",
      "roundf", "sqrtf", "tanhf", "truncf", "abs", "vcadd", "GetTPipePtr", "ascendc_kernel_printf"};
  return names;
}

std::string forbidden_reason(const Symbol& s, Side side) {
  if (std::find(s.namespaces.begin(), s.namespaces.end(), "aoc") != s.namespaces.end() ||
      (s.is_namespace && !s.scopes.empty() && s.scopes.back() == "aoc"))
    return "namespace aoc is the simulator's internals (trace, core state, memory registry), not the AscendC API";
  if (s.origin == DeclOrigin::Candidate) return "";
  if (std::any_of(s.scopes.begin(), s.scopes.end(), hook_name))
    return "names starting with aoc_ or __aoc are the API classes' implementation hooks, not the AscendC API";
  if (s.is_namespace) return "";
  if (s.origin == DeclOrigin::AscendC) {
    if (!s.namespaces.empty() && api_namespace(s.namespaces.front())) return "";
    if (s.namespaces.empty() && listed(global_api_names(), s.qualified)) return "";
    // The compiler's math builtins, which the headers redeclare to call them from kernels.
    if (s.namespaces.empty() && starts_with(s.qualified, "__builtin_")) return "";
    return "declared by the AscendC headers outside the API (namespaces AscendC, optiling, ge, gert, ...)";
  }
  if (side == Side::Host || listed(kernel_library_names(), s.qualified)) return "";
  return "kernel code may use only a short list of the C++ library (docs/eval.md, \"API use\")";
}

}  // namespace aoc::rewrite
