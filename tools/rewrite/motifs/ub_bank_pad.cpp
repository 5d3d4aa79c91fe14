// UB placement against bank conflicts: a TBuf that is never read or written, initialised
// between two operand buffers, shifts the later operands to other UB bank groups so a vector
// instruction reads its two sources in one beat. Remove: the pad's InitBuffer goes (the UB
// it held is freed, so the tiling's budget still holds). Apply is refused: the pad needs UB
// the host tiling has already handed to the tiles.
#include "motifs/motif_util.h"

namespace aoc::rewrite {
namespace {

struct Pad {
  const Var* buf = nullptr;
  const Call* init = nullptr;
};

std::vector<Pad> pads(const KernelModel& m) {
  std::vector<Pad> out;
  for (const auto& v : m.vars) {
    if (!v.is_member || v.type_template != "TBuf" || m.is_host(v.decl.file)) continue;
    const Call* init = nullptr;
    bool other_use = false;
    for (const auto& c : m.calls) {
      if (c.klass != v.klass) continue;
      if (identifier_of(c.object) == v.name) other_use = true;  // Get / GetWithOffset ...
      for (size_t i = 0; i < c.args.size(); ++i) {
        if (identifier_of(c.args[i].text) != v.name) continue;
        if (c.callee == "InitBuffer" && i == 0 && !init) init = &c;
        else other_use = true;
      }
    }
    if (init && !other_use && init->stmt.valid() && init->editable) out.push_back({&v, init});
  }
  return out;
}

class UbBankPad : public Motif {
public:
  std::string name() const override { return "ub_bank_pad"; }
  std::string summary() const override {
    return "an unused UB pad buffer shifts operands to other bank groups <-> plain back-to-back buffers";
  }
  Detection detect(const KernelModel& m) const override {
    auto ps = pads(m);
    if (ps.empty()) return not_applicable("no pad buffer; adding one needs UB the tiling has already handed to the tiles");
    Detection d;
    d.state = State::Present;
    for (const auto& p : ps) d.ranges.push_back(p.init->stmt);
    d.reason = "TBuf " + ps.front().buf->name + " is initialised but never accessed";
    return d;
  }
  Transform remove(const KernelModel& m) const override {
    auto ps = pads(m);
    if (ps.empty()) return refuse("no pad buffer to remove");
    Transform t;
    for (const auto& p : ps) {
      t.edits.push_back(erase_statement(m, p.init->stmt));
      t.ranges.push_back(p.init->stmt);
    }
    return t;
  }
  Transform apply(const KernelModel&) const override {
    return refuse("a pad needs UB that the host tiling has already given to the tiles");
  }
};

const RegisterMotif<UbBankPad> kRegistered{30};

}  // namespace

}  // namespace aoc::rewrite
