// Kernel-side tiling macros: reading the tiling blob the host wrote into GM, branching on
// the tiling key, and declaring the kernel type.
//
// GET_TILING_DATA(var, tiling) finds its struct type without naming it: the op's tiling
// header (BEGIN_TILING_DATA_DEF ... REGISTER_TILING_DATA_CLASS) is included or
// force-included before the kernel, and the registration is found at compile time
// (aoc/host/tiling_registration.h). A kernel-local REGISTER_TILING_DEFAULT(Struct) wins.
// Host and kernel share the very same class, so the byte layout matches by construction.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <source_location>
#include <type_traits>

#include "aoc/core_state.h"
#include "aoc/error.h"
#include "aoc/host/tiling_registration.h"
#include "aoc/trace.h"

// Kernel types selectable with KERNEL_TASK_TYPE_DEFAULT / KERNEL_TASK_TYPE.
enum KernelMetaType : int32_t {
  KERNEL_TYPE_AIV_ONLY = 0,
  KERNEL_TYPE_AIC_ONLY,
  KERNEL_TYPE_MIX_AIV_1_0,
  KERNEL_TYPE_MIX_AIC_1_0,
  KERNEL_TYPE_MIX_AIC_1_1,
  KERNEL_TYPE_MIX_AIC_1_2,
  KERNEL_TYPE_AICORE,
  KERNEL_TYPE_VECTORCORE,
  KERNEL_TYPE_MIX_AICORE,
  KERNEL_TYPE_MIX_VECTOR_CORE,
  KERNEL_TYPE_MAX
};

// Fallback looked up by GET_TILING_DATA; REGISTER_TILING_DEFAULT shadows it in the kernel body.
using aoc_default_tiling_type = ::aoc::tiling::NoTilingData;

namespace aoc::tiling {

// Copies `bytes` of tiling data from the GM pointer (plus offset) into `dst`. The copy is
// scalar work on the device (the core reads the blob word by word), so it is traced as such.
inline void load(void* dst, size_t bytes, const void* tiling, size_t offset, const char* api,
                 const std::source_location& loc = std::source_location::current()) {
  check(tiling != nullptr, api, loc, "the tiling argument is a null pointer");
  auto alloc = GmRegistry::instance().find(tiling);
  // Through the real bytes when the launch handed the tiling over as a guarded address.
  const auto* src = static_cast<const std::byte*>(tiling) + offset + alloc.delta;
  if (alloc.hi != 0) {
    auto end = reinterpret_cast<uintptr_t>(src) - alloc.delta + bytes;
    check(end <= alloc.hi, api, loc, "reads ", bytes, " bytes at offset ", offset, " of the tiling buffer '",
          alloc.name, "' that holds only ", alloc.hi - reinterpret_cast<uintptr_t>(tiling),
          " bytes: the host wrote a smaller tiling struct than the kernel reads");
  }
  std::memcpy(dst, src, bytes);
  TraceRecord* r = core().trace.append(RecKind::Scalar, Pipe::S, api, loc);
  r->elems = (bytes + 7) / 8;
  r->bytes = bytes;
  r->nreads = 1;
  r->reads[0] = Range{Space::GM, reinterpret_cast<uintptr_t>(src), reinterpret_cast<uintptr_t>(src) + bytes};
}

template <class T>
inline T* view(const void* tiling, const char* api, const std::source_location& loc = std::source_location::current()) {
  check(tiling != nullptr, api, loc, "the tiling argument is a null pointer");
  const intptr_t delta = GmRegistry::instance().find(tiling).delta;
  return reinterpret_cast<T*>(reinterpret_cast<uintptr_t>(tiling) + delta);
}

inline bool key_in(uint64_t key, std::initializer_list<uint64_t> keys) {
  for (uint64_t k : keys)
    if (k == key) return true;
  return false;
}

inline void set_kernel_type(int32_t type) { core().kernel_type = type; }

}  // namespace aoc::tiling

#define AOC_TILING_CAT2(a, b) a##b
#define AOC_TILING_CAT(a, b) AOC_TILING_CAT2(a, b)

#define GET_TILING_DATA(var, tiling_arg)                                                                   \
  using AOC_TILING_CAT(aoc_tiling_type_, var) =                                                       \
      typename ::aoc::tiling::choose<aoc_default_tiling_type, __COUNTER__>::type;                     \
  static_assert(!std::is_same_v<AOC_TILING_CAT(aoc_tiling_type_, var), ::aoc::tiling::NoTilingData>,  \
                "GET_TILING_DATA: no tiling data class is registered; include the op's tiling header " \
                "before the kernel, use REGISTER_TILING_DEFAULT or GET_TILING_DATA_WITH_STRUCT");      \
  AOC_TILING_CAT(aoc_tiling_type_, var) var;                                                          \
  ::aoc::tiling::load(&var, sizeof(var), (tiling_arg), 0, "GET_TILING_DATA")

#define GET_TILING_DATA_WITH_STRUCT(tiling_struct, var, tiling_arg) \
  tiling_struct var;                                           \
  ::aoc::tiling::load(&var, sizeof(var), (tiling_arg), 0, "GET_TILING_DATA_WITH_STRUCT")

#define GET_TILING_DATA_MEMBER(tiling_struct, member, var, tiling_arg)                               \
  std::remove_cvref_t<decltype(std::declval<tiling_struct&>().member)> var;                     \
  ::aoc::tiling::load(&var, sizeof(var), (tiling_arg), offsetof(tiling_struct, member), \
                      "GET_TILING_DATA_MEMBER")

#define GET_TILING_DATA_PTR_WITH_STRUCT(tiling_struct, ptr, tiling_arg) \
  tiling_struct* ptr = ::aoc::tiling::view<tiling_struct>((tiling_arg), "GET_TILING_DATA_PTR_WITH_STRUCT")

// Standard-C++ tiling structs: names the struct GET_TILING_DATA uses in this kernel body.
#define REGISTER_TILING_DEFAULT(tiling_struct) using aoc_default_tiling_type = tiling_struct
// Per-key structs are read with GET_TILING_DATA_WITH_STRUCT inside the key's branch; the
// registration itself only checks that the struct is a complete type.
#define REGISTER_TILING_FOR_TILINGKEY(condition, tiling_struct) \
  static_assert(sizeof(tiling_struct) > 0, condition)
#define REGISTER_NONE_TILING static_assert(true)

#define TILING_KEY_IS(key) (::aoc::core().tiling_key == static_cast<uint64_t>(key))
#define TILING_KEY_LIST(...) (::aoc::tiling::key_in(::aoc::core().tiling_key, {__VA_ARGS__}))

#define KERNEL_TASK_TYPE_DEFAULT(type) ::aoc::tiling::set_kernel_type(static_cast<int32_t>(type))
#define KERNEL_TASK_TYPE(key, type) \
  do {                              \
    if (TILING_KEY_IS(key)) ::aoc::tiling::set_kernel_type(static_cast<int32_t>(type)); \
  } while (0)
