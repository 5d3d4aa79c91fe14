#include "motifs/half_numerics.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <regex>
#include <set>

#include "motifs/motif_util.h"

namespace aoc::rewrite {
namespace {

// A sign, absolute (`ref` empty: +1 never negative, -1 never positive) or relative to the input
// tensor `ref` (+1 its sign, -1 the opposite); 0 is unknown.
struct Sign {
  std::string ref;
  int s = 0;
  bool known() const { return s != 0; }
  bool operator==(const Sign& o) const { return s == o.s && (s == 0 || ref == o.ref); }
};

Sign times(const Sign& a, const Sign& b) {
  if (!a.known() || !b.known()) return {};
  if (a.ref.empty()) return {b.ref, a.s * b.s};
  if (b.ref.empty()) return {a.ref, a.s * b.s};
  if (a.ref == b.ref) return {"", a.s * b.s};
  return {};
}
Sign negated(Sign a) {
  a.s = -a.s;
  return a;
}
Sign absolute(double v) { return {"", v > 0 ? 1 : v < 0 ? -1 : 0}; }

struct Value {
  bool rounded = false;  // holds the result of a float16 rounding that float would not have made
  Sign sign;
  bool may_inf = false;          // may overflow float16 (to +-inf) where float stays finite
  std::optional<double> upper;   // an upper bound, when a Mins or a constant gives one
};

// exp overflows float16 above ln(65504) = 11.09.
constexpr double kExpLimit = 11.0;

// The value of a constant scalar argument: `0.5f`, `-1.0`, `1.0f / 6.0f`, `static_cast<float>(2)`.
std::optional<double> constant(std::string t) {
  t = trim(t);
  static const std::regex cast(R"(^(static_cast<\s*\w+\s*>|\(\s*(float|double|half)\s*\)|float|half)\s*\((.*)\)$)");
  std::smatch g;
  if (std::regex_match(t, g, cast)) return constant(g[3]);
  if (t.size() > 1 && t.front() == '(' && t.back() == ')') return constant(t.substr(1, t.size() - 2));
  for (const char op : {'/', '*'}) {
    const size_t p = t.rfind(op);
    if (p != std::string::npos && p > 0) {
      const auto a = constant(t.substr(0, p)), b = constant(t.substr(p + 1));
      if (!a || !b || (op == '/' && *b == 0)) return std::nullopt;
      return op == '/' ? *a / *b : *a * *b;
    }
  }
  static const std::regex number(R"(^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?[fFlL]?$)");
  if (!std::regex_match(t, number)) return std::nullopt;
  std::string digits = t;
  while (!digits.empty() && std::isalpha(static_cast<unsigned char>(digits.back())) && digits.back() != 'e' && digits.back() != 'E')
    digits.pop_back();
  return std::strtod(digits.c_str(), nullptr);
}

// Multiplying by 0 or a power of two rounds nothing (short of overflow and subnormals).
bool exact_scale(double v) {
  if (v == 0) return true;
  int e;
  return std::frexp(std::fabs(v), &e) == 0.5;
}

const std::set<std::string>& reductions() {
  static const std::set<std::string> r = {"ReduceSum", "ReduceMax", "ReduceMin", "WholeReduceSum", "WholeReduceMax",
                                          "WholeReduceMin", "BlockReduceSum", "BlockReduceMax", "BlockReduceMin",
                                          "PairReduceSum", "Sum", "RepeatReduceSum", "SoftMax", "LayerNorm", "RmsNorm"};
  return r;
}

class Tracker {
public:
  // Follows one call; returns the hazard it meets, or "".
  std::string step(const KernelModel& m, const Call& c) {
    inf_ = false;
    const Block* b = m.block_of(c.range);
    block_ = b ? b->range : Range{};
    if (!c.object.empty() || (c.ns != "AscendC" && !c.ns.empty()) || c.args.empty()) return "";
    const std::string& f = c.callee;
    const auto& a = c.args;
    const std::string at = " at line " + std::to_string(c.range.line);
    if (defined_here(m, c)) {  // a helper of the sources: its own calls are followed on their own
      write(argument_variable(a[0].text), {true, {}});
      return "";
    }
    if (reductions().count(f))
      return f + at + " reduces: accumulating in float16 loses more than the tolerance of one rounding";
    auto arg = [&](size_t i) { return i < a.size() ? read(a[i].text) : Value{}; };
    auto scalar = [&](size_t i) { return i < a.size() ? constant(a[i].text) : std::nullopt; };
    const std::string dst = argument_variable(a[0].text);
    // An overflow flows on through every step but a division's denominator and a reciprocal.
    inf_ = (a.size() > 1 && arg(1).may_inf) || (a.size() > 2 && f != "Div" && arg(2).may_inf) ||
           (f == "Axpy" && arg(0).may_inf);
    if (f == "DataCopy" || f == "DataCopyPad" || f == "Copy" || f == "Gather") {
      if (a.size() >= 2) write(dst, arg(1));
    } else if (f == "Cast") {
      const Value src = arg(1);
      static const std::regex to_int(R"(CAST_(FLOOR|CEIL|TRUNC|ROUND)\b)");
      if (src.rounded && a.size() >= 3 && std::regex_search(a[2].text, to_int))
        return "Cast" + at + " turns a computed value into an integer: float16 holds integers exactly only up to 2048";
      write(dst, src);
    } else if (f == "Duplicate") {
      const auto v = scalar(1);
      write(dst, {false, v ? absolute(*v) : Sign{}, false, v});
    } else if (f == "CreateVecIndex") {
      write(dst, {true, {"", 1}});  // positions: exact in float16 only up to 2048
    } else if (f == "Abs" || f == "Relu") {
      write(dst, {arg(1).rounded, {"", 1}});
    } else if (f == "Neg") {
      const Value v = arg(1);
      write(dst, {v.rounded, negated(v.sign)});
    } else if (f == "Max" || f == "Min") {
      const Value x = arg(1), y = arg(2);
      const int keep = f == "Max" ? 1 : -1;  // Max of a non-negative is non-negative, Min of a non-positive non-positive
      Sign s = x.sign == y.sign ? x.sign : Sign{};
      if ((x.sign.ref.empty() && x.sign.s == keep) || (y.sign.ref.empty() && y.sign.s == keep)) s = {"", keep};
      write(dst, {x.rounded || y.rounded, s});
    } else if (f == "Maxs" || f == "Mins") {
      const Value x = arg(1);
      const auto v = scalar(2);
      const int keep = f == "Maxs" ? 1 : -1;
      Sign s;
      if (v && (keep * *v >= 0)) s = {"", keep};
      else if (x.sign.ref.empty() && x.sign.s == -keep && v && keep * *v < 0) s = x.sign;
      std::optional<double> upper;
      if (f == "Mins" && v) upper = x.upper ? std::min(*x.upper, *v) : *v;
      write(dst, {x.rounded, s, false, upper});
    } else if (f == "Muls") {
      const Value x = arg(1);
      const auto v = scalar(2);
      write(dst, {x.rounded || !v || !exact_scale(*v), v ? times(x.sign, absolute(*v)) : Sign{}});
    } else if (f == "Mul" || f == "Div") {
      const Value x = arg(1), y = arg(2);
      if (f == "Div" && x.may_inf && y.may_inf)
        return "Div" + at + " divides two values that overflow float16 where float stays finite: inf / inf is NaN";
      write(dst, {true, times(x.sign, y.sign)});
    } else if (f == "Reciprocal") {
      const Value x = arg(1);
      inf_ = false;  // 1 / inf is 0
      write(dst, {true, x.sign});
    } else if (f == "Sqrt" || f == "Rsqrt") {
      write(dst, {true, {"", 1}});
    } else if (f == "Add" || f == "Sub") {
      const Value x = arg(1), y = arg(2);
      const Sign ys = f == "Sub" ? negated(y.sign) : y.sign;
      const bool same = x.sign.known() && x.sign == ys;
      if ((x.rounded || y.rounded) && !same)
        return f + at + cancels;
      write(dst, {true, same ? x.sign : Sign{}});
    } else if (f == "Adds" || f == "Subs") {
      const Value x = arg(1);
      auto v = scalar(2);
      if (v && f == "Subs") *v = -*v;
      if (v && *v == 0) {
        write(dst, x);
        return "";
      }
      const bool same = v && x.sign.ref.empty() && x.sign.s == absolute(*v).s;
      if (x.rounded && !same) return f + at + cancels;
      std::optional<double> upper;
      if (x.upper && v) upper = *x.upper + *v;
      write(dst, {true, same ? x.sign : Sign{}, false, upper});
    } else if (f == "Axpy") {  // dst += scalar * src
      const Value d = read(a[0].text), x = arg(1);
      const auto v = scalar(2);
      const Value term{x.rounded || !v || !exact_scale(*v), v ? times(x.sign, absolute(*v)) : Sign{}};
      const bool same = d.sign.known() && d.sign == term.sign;
      if ((d.rounded || term.rounded) && !same) return "Axpy" + at + cancels;
      write(dst, {true, same ? d.sign : Sign{}});
    } else if (f == "Exp" || f == "Sigmoid" || f == "Ln" || f == "Log" || f == "Power" || f == "Pow") {
      for (size_t i = 1; i < std::min<size_t>(a.size(), f == "Power" || f == "Pow" ? 3 : 2); ++i)
        if (read(a[i].text).rounded)
          return f + at + " of a computed argument: " +
                 (f == "Ln" || f == "Log" ? std::string("near 1 a logarithm turns its argument's rounding into a large relative error")
                                          : std::string("the result carries the argument's rounding times the argument's size"));
      if (f == "Exp") {  // overflows unless its argument is bounded below the limit
        const Value z = arg(1);
        inf_ = inf_ || !((z.sign.ref.empty() && z.sign.s < 0) || (z.upper && *z.upper <= kExpLimit));
      }
      write(dst, {true, f == "Exp" || f == "Sigmoid" ? Sign{"", 1} : Sign{}});
    } else {
      write(dst, {true, {}});  // any other computation: one rounding, well conditioned as far as we know
    }
    return "";
  }

private:
  static constexpr const char* cancels =
      " adds terms of possibly opposite signs, one rounded in float16: where they cancel, its error exceeds the result "
      "(the precision gate's small-value region)";

  static bool defined_here(const KernelModel& m, const Call& c) {
    return std::any_of(m.functions.begin(), m.functions.end(), [&](const Function& f) { return f.name == c.callee; });
  }

  // The last value written to the tensor that can reach the current call: a write in a block
  // beside the call's (the other branch of an if) cannot.
  Value read(const std::string& text) const {
    const std::string k = argument_variable(text);
    const auto it = values_.find(k);
    if (it != values_.end())
      for (auto w = it->second.rbegin(); w != it->second.rend(); ++w)
        if (!disjoint(w->first, block_)) return w->second;
    return {false, {k, k.empty() ? 0 : 1}};  // an input: exact, its own sign
  }
  void write(const std::string& key, Value v) {
    v.may_inf = v.may_inf || inf_;
    if (!key.empty()) values_[key].emplace_back(block_, v);
  }
  static bool disjoint(const Range& a, const Range& b) {
    return a.file == b.file && (a.end <= b.begin || b.end <= a.begin);
  }

  std::map<std::string, std::vector<std::pair<Range, Value>>> values_;
  Range block_;  // the innermost block of the call being followed
  bool inf_ = false;  // whether the call's result may overflow float16 (from its operands)
};

}  // namespace

std::string half_precision_hazard(const KernelModel& m, const std::vector<const Call*>& calls) {
  std::map<std::pair<std::string, std::string>, std::vector<const Call*>> by_function;
  for (const Call* c : calls)
    if (!m.is_host(c->range.file)) by_function[{c->klass, c->function}].push_back(c);
  for (auto& [key, fcalls] : by_function) {
    std::sort(fcalls.begin(), fcalls.end(), [](const Call* a, const Call* b) {
      return a->range.file != b->range.file ? a->range.file < b->range.file : a->range.begin < b->range.begin;
    });
    const bool loops = std::any_of(fcalls.begin(), fcalls.end(), [](const Call* c) { return c->loop_depth > 0; });
    Tracker t;
    for (int pass = 0; pass < (loops ? 2 : 1); ++pass)
      for (const Call* c : fcalls)
        if (std::string h = t.step(m, *c); !h.empty())
          return (key.first.empty() ? "" : key.first + "::") + key.second + ": " + h;
  }
  return "";
}

}  // namespace aoc::rewrite
