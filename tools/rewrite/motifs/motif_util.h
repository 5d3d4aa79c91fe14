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
// The identifier a simple argument names: `x`, `this->x`, `x` of `xBuf.Get<T>()` is not one.
std::string identifier_of(const std::string& text);
Transform refuse(std::string why);
Detection not_applicable(std::string why);
// The host's tuning::Knob/KnobRange calls declaring the `buffer_num` knob.
std::vector<const Call*> buffer_num_knobs(const KernelModel& m);
// Whether the tensors `d` and `a` named in call `c` may be one tensor: both parameters of the
// function holding `c`, and some call of that function passes one argument for both (or one
// that is not a plain name). Two different names of locals or members are taken as distinct.
bool may_alias(const KernelModel& m, const Call& c, const std::string& d, const std::string& a);
// A trimmed copy.
std::string trim(const std::string& s);

}  // namespace aoc::rewrite
