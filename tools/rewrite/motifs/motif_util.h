// Small queries over the kernel model shared by the motifs.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "kernel_model.h"
#include "motif.h"

namespace aoc::rewrite {

// An AscendC API call (qualified or found through using-declarations) of that name.
bool is_api(const Call& c, const std::string& name);
// Integer value of an initializer such as `2`, `2U` or `uint32_t(2)`.
std::optional<long long> int_value(const std::string& text);
// The integer `text` (an argument of call `at`) stands for: a literal, or a const/constexpr
// variable seen from `at` with such an initializer.
std::optional<long long> constant_at(const KernelModel& m, const Call& at, const std::string& text);
// The identifier a simple argument names: `x`, `this->x`, `x` of `xBuf.Get<T>()` is not one.
std::string identifier_of(const std::string& text);
Transform refuse(std::string why);
Detection not_applicable(std::string why);
// The host's tuning::Knob/KnobRange calls declaring the `buffer_num` knob.
std::vector<const Call*> buffer_num_knobs(const KernelModel& m);
// Whether the tensors `d` and `a` named in call `c` may share storage: followed through locals
// (`t = buf.Get<T>()` lives in `buf`, `u = t[64]` in whatever t lives in) and parameters (what
// every caller of the function holding `c` passes), they reach a common buffer, or one of
// them cannot be followed (an argument that is not a plain name). Two slices of one buffer
// count as sharing it.
bool may_alias(const KernelModel& m, const Call& c, const std::string& d, const std::string& a);
// A trimmed copy.
std::string trim(const std::string& s);
// `text` with the characters a std::regex treats specially escaped.
std::string regex_escaped(const std::string& text);
// `name.cpp:12`: the file name (no folder) and line of `r`, for reasons.
std::string file_line(const Range& r);

}  // namespace aoc::rewrite
