// An operator package on disk (ops/<category>/<name>/) and its op.toml description.
// The schema is documented in docs/op-package.md; load_op_package() validates it
// and reports problems naming the file, the key and how to fix it.
#pragma once
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "package/dtype.h"
#include "package/shape_expr.h"

namespace aoc::package {

// A problem in a package: message names file, key and fix.
class PackageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct TensorSpec {
  std::string name;
  std::vector<ElemType> dtypes;  // column i belongs to dtype variant i (msopgen convention)
  std::string format = "ND";
  std::string shape_like;        // outputs: input whose shape the output takes
  // outputs: the shape as expressions of the inputs' shapes and int attributes
  // (package/shape_expr.h); empty list: a scalar.
  std::optional<std::vector<ShapeItem>> shape;
};

// Attribute values: numbers are kept as double, integers exactly as int64.
using AttrValue = std::variant<int64_t, double, bool, std::string, std::vector<int64_t>, std::vector<double>>;

struct AttrSpec {
  std::string name;
  std::string type;  // "int", "float", "bool", "string", "list_int", "list_float"
  std::optional<AttrValue> default_value;
};

// How the values of one input are drawn.
struct ValueRange {
  std::string dist = "uniform";  // "uniform", "constant", "zeros"
  double low = -1.0;
  double high = 1.0;
  double value = 0.0;            // "constant"
  std::vector<double> special;   // injected at the head and tail: nan, inf, -inf, numbers
};

struct CaseSpec {
  std::string name;
  std::map<std::string, std::vector<int64_t>> shapes;  // per input
  std::map<std::string, AttrValue> attrs;              // overrides of attribute defaults
  size_t variant = 0;                                  // dtype variant index
  ValueRange values;                                   // default for every input
  std::map<std::string, ValueRange> input_values;      // per-input overrides
  // A performance case (`perf = true`): the package's speed is the geomean simulated time
  // over these. `source` says where the shape occurs in a real model (model, layer, token
  // count), so the speed measures shapes that matter; required on performance cases.
  bool perf = false;
  std::string source;
};

struct Tolerance {
  // Implicit from a relax factor, as most operators declare nothing else.
  Tolerance(double relax_factor = 1.0, double atol = 0.0) : relax(relax_factor), integer_atol(atol) {}
  double relax;         // multiplies the dtype's tau; at most 10
  double integer_atol;  // integer outputs: largest accepted absolute difference (0: exact)
};

// Generator parameters of the hidden cases ([hidden] in op.toml); see case_gen.h.
struct HiddenSpec {
  int64_t count = 80;                       // cases per draw
  int64_t rank_min = 1, rank_max = 5;       // rank of the first input
  int64_t elements_min = 1000, elements_max = 10000000;  // elements of the first input
  int64_t inner_min = 1, inner_max = 0;     // innermost dimension (0: no upper bound)
  int64_t inner_multiple = 1;               // innermost dimension is a multiple of this (e.g. 2 for halves)
  int64_t elements_multiple = 1;            // first input's element count is a multiple of this (even shares)
  std::vector<size_t> variants;             // dtype variants drawn from (empty: all)
  std::vector<std::string> value_names;     // names of `values` entries, for reports
  std::vector<ValueRange> values;           // value ranges drawn from
  std::map<std::string, ValueRange> input_values;          // per-input overrides
  std::map<std::string, std::vector<int64_t>> input_dims;  // other inputs: dims of the first input by index
  std::map<std::string, std::vector<AttrValue>> attrs;     // choices per attribute
};

struct OpPackage {
  std::filesystem::path dir;
  std::filesystem::path toml_path;
  std::string name;       // package name, also the op_host/op_kernel file stem
  std::string op_type;    // name registered with OP_ADD (defaults to CamelCase of name)
  std::string category;
  std::string kernel;     // extern "C" kernel symbol (defaults to name)
  std::vector<TensorSpec> inputs, outputs;
  std::vector<AttrSpec> attrs;
  std::vector<CaseSpec> cases;
  Tolerance tolerance;
  HiddenSpec hidden;

  size_t variant_count() const;
  // "float16" or "float16,float32" when the inputs of a variant differ.
  std::string variant_label(size_t v) const;
  const TensorSpec* find_input(const std::string& n) const;
  // Shape of output `o` in case `c`: the shape of its shape_like input when op.toml names
  // one; else what the InferShape function registered for op_type (OpDef::SetInferShape)
  // computes, once the op library is loaded; else the first input's shape.
  // Throws PackageError when InferShape fails. Defined in output_shape.cpp.
  std::vector<int64_t> output_shape(const CaseSpec& c, size_t o) const;
  // The shape op.toml writes for output `o` (TensorSpec::shape, which it must have) in case
  // `c`; throws ShapeExprError. Defined in output_shape.cpp.
  std::vector<int64_t> written_output_shape(const CaseSpec& c, size_t o) const;
  // Attribute values of a case, defaults filled in, in declaration order.
  std::vector<std::pair<std::string, AttrValue>> case_attrs(const CaseSpec& c) const;
  std::vector<std::filesystem::path> host_sources() const;
  std::vector<std::filesystem::path> kernel_sources() const;
  std::filesystem::path golden_source() const { return dir / "golden.cpp"; }
};

// The C++ translation units of a source folder (op_host/, op_kernel/ of a package or a
// candidate copy), sorted so builds see them in one order; none when it is not a folder.
std::vector<std::filesystem::path> cpp_files(const std::filesystem::path& folder);
// The op_host/ units that build the operator's host side (OpDef, tiling, InferShape): cpp_files
// less the aclnn API layer CANN operator repositories keep beside them (op_api sources:
// `aclnn_*.cpp`, `*_l0.cpp`, or a unit including a header of aclnn/, aclnn_kernels/, opdev/ or
// level0/ or a local `aclnn_*.h` / `*_l0.h`). The device build compiles that layer into a
// separate op API library against CANN's runtime headers; the operator's tiling never calls it.
// A unit that registers the operator (OP_ADD) or its tiling is always kept.
std::vector<std::filesystem::path> host_cpp_files(const std::filesystem::path& folder);
bool is_op_api_source(const std::filesystem::path& file);
// The op_host/ headers a kernel unit is given (-include) so that GET_TILING_DATA finds the tiling
// struct, as the device build generates it from op_host's registrations: <package>_tiling.h,
// else every header of the folder with "tiling" in its name that defines tiling data
// (BEGIN_TILING_DATA_DEF), sorted. Not other headers: a kernel header of the same name as an
// op_host one often shares its include guard.
std::vector<std::filesystem::path> kernel_tiling_headers(const std::filesystem::path& host_folder,
                                                         const std::string& package);

OpPackage load_op_package(const std::filesystem::path& dir);
// Packages under a suite root (every folder holding an op.toml), sorted by path.
std::vector<std::filesystem::path> find_op_packages(const std::filesystem::path& root);

// The named value ranges of evaluation.md section 4, usable in [hidden].values:
// small, medium, large, positive, asymmetric, boundary, special, zeros.
std::optional<ValueRange> named_value_range(const std::string& name);
std::string known_value_range_names();

std::string to_string(const AttrValue& v);
std::string shape_to_string(const std::vector<int64_t>& s);

}  // namespace aoc::package
