// Tiling data definition macros (namespace optiling on the host, and the same header is
// read by the kernel). Each BEGIN_TILING_DATA_DEF class is a standard-layout class whose
// data members are the declared fields in declaration order, all public, so that the
// kernel reads them as plain members (tilingData.totalLength) while host code uses the
// generated set_<f>/get_<f>. SaveToBuffer writes the object's bytes: host and kernel
// share one definition, so the blob layout is the C++ layout of this class.
#pragma once
#include <array>  // host tiling code uses std::array, which the device toolchain's headers bring in
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <source_location>
#include <type_traits>

#include "aoc/kernel_unit.h"
#include "aoc/error.h"
#include "aoc/host/tiling_registration.h"
// Tiling headers also hold host helpers (a GetCompileInfo wrapper taking a
// gert::TilingParseContext*, a compile-info struct): the device build strips them before the
// kernel sees the tiling struct; here the kernel unit reads the whole header, so the host
// context types it names are declared for kernel units too.
#include "aoc/host/tiling_context.h"
#include "graph/types.h"

namespace aoc::tiling {

inline void save(const void* self, size_t bytes, void* dst, size_t capacity, const char* class_name,
                 const std::source_location& loc) {
  check(dst != nullptr, "SaveToBuffer", loc, class_name, ": destination buffer is null");
  check(bytes <= capacity, "SaveToBuffer", loc, class_name, " needs ", bytes,
        " bytes but the tiling buffer capacity is ", capacity);
  std::memcpy(dst, self, bytes);
}

template <class T>
constexpr bool valid_field_type = std::is_arithmetic_v<T>;

}  // namespace aoc::tiling

#define BEGIN_TILING_DATA_DEF(class_name)                                                          \
  class class_name {                                                                             \
   public:                                                                                       \
    static constexpr const char* aoc_class_name = #class_name;                                   \
    void SaveToBuffer(void* dst, size_t capacity,                                                \
                      std::source_location aoc_loc = std::source_location::current()) const {    \
      ::aoc::tiling::save(this, sizeof(*this), dst, capacity, #class_name, aoc_loc);             \
    }                                                                                            \
    size_t GetDataSize() const { return sizeof(*this); }                                         \
    /* Host code sometimes fills a class from bytes it saved earlier. */                        \
    void SetDataPtr(const void* src) { std::memcpy(static_cast<void*>(this), src, sizeof(*this)); }

// Each field macro ends in `;` as the device's do, so a last field written without one compiles too
// (with one, the extra `;` is an empty member declaration).
#define TILING_DATA_FIELD_DEF(data_type, field_name)                                               \
  data_type field_name = data_type{};                                                            \
  void set_##field_name(data_type aoc_value) { field_name = aoc_value; }                         \
  data_type get_##field_name() const { return field_name; }                                      \
  static_assert(::aoc::tiling::valid_field_type<data_type>,                                      \
                "TILING_DATA_FIELD_DEF: field types are bool, int8..uint64 and float");

#define TILING_DATA_FIELD_DEF_ARR(data_type, arr_size, field_name)                                 \
  data_type field_name[arr_size] = {};                                                           \
  void set_##field_name(const data_type* aoc_values) {                                           \
    std::memcpy(field_name, aoc_values, sizeof(field_name));                                     \
  }                                                                                              \
  data_type* get_##field_name() { return field_name; }                                           \
  const data_type* get_##field_name() const { return field_name; }                               \
  static_assert(::aoc::tiling::valid_field_type<data_type>,                                      \
                "TILING_DATA_FIELD_DEF_ARR: element types are bool, int8..uint64 and float");

#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field_name)                                      \
  struct_type field_name{};                                                                      \
  void set_##field_name(const struct_type& aoc_value) { field_name = aoc_value; }                \
  struct_type& get_##field_name() { return field_name; }                                         \
  const struct_type& get_##field_name() const { return field_name; }                             \
  static_assert(std::is_trivially_copyable_v<struct_type>,                                       \
                "TILING_DATA_FIELD_DEF_STRUCT: nested tiling structs must be plain data");

// With its own `;`: public headers write `END_TILING_DATA_DEF;` (an empty declaration after it)
// and also leave it off.
#define END_TILING_DATA_DEF };

// Registers `class_name` as the tiling data of `op_type` (or, as <Name>Op, a nested struct;
// or, as <Op>_<key>, the struct of one tiling key). Valid in any namespace.
#define REGISTER_TILING_DATA_CLASS(op_type, class_name)                                            \
  static_assert(std::is_standard_layout_v<class_name> && std::is_trivially_copyable_v<class_name>, \
                "tiling data must be standard-layout plain data");                               \
  AOC_REGISTER_TILING_SLOT(op_type, class_name, __COUNTER__)
