// The motif catalogue, in the order reports list them.
#include "motif.h"

namespace aoc::rewrite {

std::unique_ptr<Motif> make_double_buffer();
std::unique_ptr<Motif> make_event_sync();
std::unique_ptr<Motif> make_ub_bank_pad();
std::unique_ptr<Motif> make_scalar_form();
std::unique_ptr<Motif> make_reciprocal_mul();
std::unique_ptr<Motif> make_tbuf_temporaries();
std::unique_ptr<Motif> make_hoisted_setup();
std::unique_ptr<Motif> make_aligned_datacopy();
std::unique_ptr<Motif> make_fused_axpy();
std::unique_ptr<Motif> make_redundant_sync();
std::unique_ptr<Motif> make_strided_copy();
std::unique_ptr<Motif> make_native_half();
std::unique_ptr<Motif> make_unroll();
std::unique_ptr<Motif> make_early_copy_in();
std::unique_ptr<Motif> make_l2_hint();
std::unique_ptr<Motif> make_vector_loop();

const char* state_name(State s) {
  switch (s) {
    case State::Present: return "present";
    case State::Applicable: return "applicable";
    case State::NotApplicable: return "not_applicable";
  }
  return "?";
}

const std::vector<std::unique_ptr<Motif>>& catalogue() {
  static const std::vector<std::unique_ptr<Motif>> all = [] {
    std::vector<std::unique_ptr<Motif>> v;
    v.push_back(make_double_buffer());
    v.push_back(make_event_sync());
    v.push_back(make_ub_bank_pad());
    v.push_back(make_scalar_form());
    v.push_back(make_reciprocal_mul());
    v.push_back(make_tbuf_temporaries());
    v.push_back(make_hoisted_setup());
    v.push_back(make_aligned_datacopy());
    v.push_back(make_fused_axpy());
    v.push_back(make_redundant_sync());
    v.push_back(make_strided_copy());
    v.push_back(make_native_half());
    v.push_back(make_unroll());
    v.push_back(make_early_copy_in());
    v.push_back(make_l2_hint());
    v.push_back(make_vector_loop());
    return v;
  }();
  return all;
}

const Motif* find_motif(const std::string& name) {
  for (const auto& m : catalogue())
    if (m->name() == name) return m.get();
  return nullptr;
}

}  // namespace aoc::rewrite
