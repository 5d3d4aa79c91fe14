// DataCopy on the aligned path: a contiguous copy whose length is whole 32 B blocks moves
// with plain DataCopy, where DataCopyPad (exact byte counts, pad handling) costs more.
// Remove: DataCopy(dst, src, n) between GM and UB -> DataCopyPad of n * sizeof(T) bytes in
// one block (correct for any n). Apply is refused: that a length is block-aligned is not
// provable from the source.
#include "motifs/motif_util.h"

namespace aoc::rewrite {
namespace {

std::string base_name(const std::string& expr) { return identifier_of(expr.substr(0, expr.find('['))); }

// Element type of a LocalTensor<T> / GlobalTensor<T> variable as written.
std::string element_type(const Var& v) {
  size_t l = v.type.find('<'), r = v.type.rfind('>');
  if (l == std::string::npos || r == std::string::npos || r <= l) return "";
  return trim(v.type.substr(l + 1, r - l - 1));
}

struct Copy {
  const Call* call = nullptr;
  bool to_ub = false;
  std::string type;
};

const Var* tensor_var(const KernelModel& m, const Call& c, const std::string& expr) {
  const std::string id = base_name(expr);
  if (id.empty()) return nullptr;
  for (const auto& v : m.vars)
    if (v.name == id && v.klass == c.klass && (v.is_member || v.function == c.function) && !m.is_host(v.decl.file))
      return &v;
  return nullptr;
}

std::vector<Copy> copies(const KernelModel& m) {
  std::vector<Copy> out;
  for (const auto& c : m.calls) {
    if (!is_api(c, "DataCopy") || c.args.size() != 3 || !c.editable || c.args[2].is_literal) continue;
    const Var* d = tensor_var(m, c, c.args[0].text);
    const Var* s = tensor_var(m, c, c.args[1].text);
    if (!d || !s) continue;
    Copy x{&c, false, ""};
    if (d->type_template == "LocalTensor" && s->type_template == "GlobalTensor") x.to_ub = true;
    else if (!(d->type_template == "GlobalTensor" && s->type_template == "LocalTensor")) continue;
    x.type = element_type(x.to_ub ? *d : *s);
    if (!x.type.empty()) out.push_back(x);
  }
  return out;
}

class AlignedDataCopy : public Motif {
public:
  std::string name() const override { return "aligned_datacopy"; }
  std::string summary() const override { return "plain DataCopy for whole-block lengths <-> DataCopyPad"; }
  Detection detect(const KernelModel& m) const override {
    auto cs = copies(m);
    if (cs.empty()) return not_applicable("no contiguous GM<->UB DataCopy (turning DataCopyPad into DataCopy needs lengths provably block-aligned)");
    Detection d;
    d.state = State::Present;
    for (const auto& c : cs) d.ranges.push_back(c.call->range);
    d.reason = std::to_string(cs.size()) + " contiguous DataCopy call(s) between GM and UB";
    return d;
  }
  Transform remove(const KernelModel& m) const override {
    auto cs = copies(m);
    if (cs.empty()) return refuse("no contiguous DataCopy between GM and UB");
    Transform t;
    for (const auto& c : cs) {
      const Call& k = *c.call;
      std::string text = "AscendC::DataCopyPad(" + trim(k.args[0].text) + ", " + trim(k.args[1].text) +
                         ", AscendC::DataCopyExtParams{1, static_cast<uint32_t>((" + trim(k.args[2].text) +
                         ") * sizeof(" + c.type + ")), 0, 0, 0}";
      if (c.to_ub) text += ", AscendC::DataCopyPadExtParams<" + c.type + ">{false, 0, 0, 0}";
      t.edits.push_back(replace(k.range, text + ")"));
      t.ranges.push_back(k.range);
    }
    return t;
  }
  Transform apply(const KernelModel&) const override {
    return refuse("that a DataCopyPad length is whole 32 B blocks is not provable from the source");
  }
};

const RegisterMotif<AlignedDataCopy> kRegistered{80};

}  // namespace

}  // namespace aoc::rewrite
