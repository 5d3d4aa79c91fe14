// Compile-time registry of tiling data classes, shared by host tiling headers and kernels.
//
// REGISTER_TILING_DATA_CLASS may appear in any namespace (usually optiling, sometimes the
// global one), so it cannot specialise a template owned by another namespace. Instead each
// registration instantiates a Writer that defines a friend function for one numbered Slot
// (numbers come from __COUNTER__); GET_TILING_DATA later scans the slots defined so far
// and picks the class the kernel means. The scan happens at the GET_TILING_DATA line,
// after every registration of the translation unit (the op's tiling header is included,
// or force-included, before the kernel body).
#pragma once
#include <cstddef>
#include <string_view>
#include <utility>

namespace aoc::tiling {

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnon-template-friend"
template <int N>
struct Slot {
  friend constexpr auto aoc_tiling_slot(Slot<N>);
};
#pragma GCC diagnostic pop

// Entry is a struct made by the registration macro: `type`, `op_name`, `class_name`.
template <int N, class Entry>
struct Writer {
  friend constexpr auto aoc_tiling_slot(Slot<N>) { return Entry{}; }
};

template <int N>
concept slot_filled = requires { aoc_tiling_slot(Slot<N>{}); };

// Marks "no class": GET_TILING_DATA refuses to compile with it.
struct NoTilingData {};

// How a registration relates to the kernel's own tiling data:
//   nested:  REGISTER_TILING_DATA_CLASS(<Name>Op, <Name>) for structs used as fields;
//   keyed:   REGISTER_TILING_DATA_CLASS(<Op>_<tilingKey>, ...) for per-key variants;
//   primary: anything else, the op's tiling data.
// When the build defines AOC_OP_TYPE, the registration for exactly that op wins.
enum Role : int { kNone = 0, kNested = 1, kKeyed = 2, kPrimary = 3, kNamedOp = 4 };

constexpr bool ends_with_digits_after_underscore(std::string_view s) {
  size_t i = s.size();
  while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9') --i;
  return i < s.size() && i > 0 && s[i - 1] == '_';
}

constexpr int classify(std::string_view op, std::string_view cls, std::string_view wanted_op) {
  if (!wanted_op.empty() && op == wanted_op) return kNamedOp;
  if (op.size() == cls.size() + 2 && op.substr(0, cls.size()) == cls && op.substr(cls.size()) == "Op")
    return kNested;
  if (ends_with_digits_after_underscore(op)) return kKeyed;
  return kPrimary;
}

#define AOC_TILING_STR2(x) #x
#define AOC_TILING_STR(x) AOC_TILING_STR2(x)
#ifdef AOC_OP_TYPE
inline constexpr std::string_view kWantedOp = AOC_TILING_STR(AOC_OP_TYPE);
#else
inline constexpr std::string_view kWantedOp = {};
#endif

template <int N>
constexpr int role_of() {
  if constexpr (slot_filled<N>) {
    using Entry = decltype(aoc_tiling_slot(Slot<N>{}));
    return classify(Entry::op_name, Entry::class_name, kWantedOp);
  } else {
    return kNone;
  }
}

// Index of the first slot with the strongest role, or -1.
template <int... I>
constexpr int pick_slot(std::integer_sequence<int, I...>) {
  int best = -1, best_role = kNone;
  ((role_of<I>() > best_role ? (best = I, best_role = role_of<I>(), 0) : 0), ...);
  // Nested structs alone do not make a kernel tiling type.
  return best_role >= kKeyed ? best : -1;
}

template <int Slot_>
struct slot_type {
  using type = typename decltype(aoc_tiling_slot(Slot<Slot_>{}))::type;
};
template <>
struct slot_type<-1> {
  using type = NoTilingData;
};

// The tiling type GET_TILING_DATA uses: the kernel's REGISTER_TILING_DEFAULT when given,
// else the registered class found among slots [0, Upper).
template <class Default, int Upper>
struct choose {
  using type = Default;
};
template <int Upper>
struct choose<NoTilingData, Upper> {
  using type = typename slot_type<pick_slot(std::make_integer_sequence<int, Upper>{})>::type;
};

}  // namespace aoc::tiling

// Used by REGISTER_TILING_DATA_CLASS (register/tilingdata_base.h).
#define AOC_REGISTER_TILING_SLOT(op_, cls_, n_) AOC_REGISTER_TILING_SLOT_(op_, cls_, n_)
#define AOC_REGISTER_TILING_SLOT_(op_, cls_, n_)                                       \
  struct aoc_tiling_entry_##op_ {                                                     \
    using type = cls_;                                                                \
    static constexpr const char* op_name = #op_;                                      \
    static constexpr const char* class_name = #cls_;                                  \
  };                                                                                  \
  inline constexpr std::size_t aoc_tiling_slot_##op_ =                                \
      sizeof(::aoc::tiling::Writer<n_, aoc_tiling_entry_##op_>);
