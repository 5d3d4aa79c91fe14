// Compares a kernel output with the golden reference, following the first
// precision screen of docs (evaluation.md section 3): reference in FP64 cast to the
// output dtype, elementwise relative error, pass if mean < tau and max < 10 tau.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "package/dtype.h"
#include "package/op_package.h"

namespace aoc::package {

// tau per dtype: 2^-10 fp16, 2^-7 bf16, 2^-13 fp32; 0 (exact) for integers.
double tolerance_tau(ElemType t);

struct CompareResult {
  bool pass = false;
  double max_rel = 0.0;
  double mean_rel = 0.0;
  int64_t worst_index = -1;  // flat index of the largest error (or first mismatch)
  double worst_actual = 0.0, worst_expected = 0.0;
  int64_t nan_mismatch = 0;  // NaN in one of kernel / reference only
  int64_t inf_mismatch = 0;  // infinities of opposite sign, or inf against a finite integer
  int64_t poisoned = 0;      // elements still holding the poison pattern where the reference is not NaN
  int64_t compared = 0;      // elements counted in the statistics
  double tau = 0.0;
  // Fallback screen (first screen failed): error counts in the small-value and the
  // cancellation regions, for the kernel and for the same-precision CPU baseline.
  bool fallback_used = false;
  int64_t small_errors = 0, small_cpu_errors = 0;
  int64_t cancel_errors = 0, cancel_cpu_errors = 0;
  // Elements outside both regions that the same-precision computation itself gets wrong by
  // 10 tau or more, and those of them where the kernel errs more than twice as much.
  int64_t illcond_elements = 0, illcond_errors = 0;
  // Passed only thanks to the package's tolerance relaxation (tolerance.relax > 1 or
  // integer_atol > 0): reported as a relaxed pass.
  bool relaxed = false;
  std::string reason;        // why it failed, empty on pass
};

// `poison_byte` is the byte the output buffer was pre-filled with; elements whose
// bytes all equal it are counted as unwritten.
// `cpu_same_precision` (optional) is the golden computed in float: when the first screen
// fails, the fallback accepts errors confined to the small-value and cancellation
// regions if the kernel makes at most twice as many there as that CPU computation.
// `tol` is the package's declared relaxation: tau times tol.relax for floats, absolute
// differences up to tol.integer_atol for integers.
// The reference is judged after rounding to the output's dtype; `golden_rounded` says it already
// was (round_reference), which saves the rounding per element and per candidate. Rounding is
// idempotent, so the result is the same either way.
CompareResult compare_output(const TypedBuffer& actual, const std::vector<double>& golden, const Tolerance& tol,
                             unsigned char poison_byte, const std::vector<double>* cpu_same_precision = nullptr,
                             bool golden_rounded = false);

// Rounds a reference output to `type` in place, as compare_output would per element.
void round_reference(ElemType type, std::vector<double>& golden);

// The outputs of the same-precision golden, or nullptr when there is none or it failed. It is a
// second golden run, so it is asked for only when an output fails the first screen.
using SamePrecisionOutputs = std::function<const std::vector<std::vector<double>>*()>;

// compare_output for each output (actual[o] against golden[o]); an output that fails is compared
// again with the same-precision golden, which may accept it through the fallback screen.
std::vector<CompareResult> compare_outputs(const std::vector<TypedBuffer>& actual,
                                           const std::vector<std::vector<double>>& golden, const Tolerance& tol,
                                           unsigned char poison_byte, const SamePrecisionOutputs& same_precision,
                                           bool golden_rounded = false);

// Flat index -> "[i,j,k]" for reports.
std::string index_to_string(int64_t flat, const std::vector<int64_t>& shape);

}  // namespace aoc::package
