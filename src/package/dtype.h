// Element types an operator package can declare, with everything the runner needs
// to know about each: the spelling in op.toml, the C++ type a kernel sees through
// DTYPE_<ARG>, the ge::DataType name for ORIG_DTYPE_<ARG>, the byte size, and the
// conversion between stored bytes and double (the golden's precision).
#pragma once
#include <cstddef>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "aoc/half.h"

namespace aoc::package {

enum class ElemType : uint8_t { F16, BF16, F32, I8, U8, I16, I32, I64, Bool };

struct ElemInfo {
  ElemType type;
  const char* name;      // canonical op.toml spelling: "float16"
  const char* cpp;       // DTYPE_<ARG> value: "half"
  const char* ge;        // ORIG_DTYPE_<ARG> value: "DT_FLOAT16"
  int32_t ge_value;      // numeric ge::DataType
  size_t bytes;
  bool is_float;
};

const ElemInfo& info(ElemType t);
// Accepts the canonical names and the usual aliases (fp16, half, float, fp32, bf16 ...).
std::optional<ElemType> parse_elem_type(std::string_view s);
// The canonical names, for error messages that list what is accepted.
std::string known_elem_types();

// How each element type is stored: Codec<E>::load reads one element as double, store rounds a
// double to the type (round to nearest even for floats, saturating for integers) and writes it.
// Loops over whole buffers are written once against this interface and instantiated per type
// through visit_elem_type, so a 67 M-element case does not branch on the type per element.
namespace codec_detail {
template <typename T> void put(void* dst, T v) { std::memcpy(dst, &v, sizeof(T)); }
template <typename T> T get(const void* src) {
  T v;
  std::memcpy(&v, src, sizeof(T));
  return v;
}
template <typename I> I saturate(double v) {
  if (std::isnan(v)) return 0;
  const double r = std::nearbyint(v);
  if (r <= static_cast<double>(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
  if (r >= static_cast<double>(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
  return static_cast<I>(r);
}
// Integer types of every width share this shape.
template <typename I> struct IntCodec {
  static constexpr size_t bytes = sizeof(I);
  static double load(const void* p) { return static_cast<double>(get<I>(p)); }
  static void store(double v, void* p) { put<I>(p, saturate<I>(v)); }
};
}  // namespace codec_detail

template <ElemType E> struct Codec;
template <> struct Codec<ElemType::F16> {
  static constexpr size_t bytes = 2;
  static double load(const void* p) { return aoc::half_bits_to_float(codec_detail::get<uint16_t>(p)); }
  static void store(double v, void* p) { codec_detail::put<uint16_t>(p, ::half(v).bits); }
};
template <> struct Codec<ElemType::BF16> {
  static constexpr size_t bytes = 2;
  static double load(const void* p) { return aoc::bf16_bits_to_float(codec_detail::get<uint16_t>(p)); }
  static void store(double v, void* p) { codec_detail::put<uint16_t>(p, ::bfloat16_t(v).bits); }
};
template <> struct Codec<ElemType::F32> {
  static constexpr size_t bytes = 4;
  static double load(const void* p) { return codec_detail::get<float>(p); }
  static void store(double v, void* p) { codec_detail::put<float>(p, static_cast<float>(v)); }
};
template <> struct Codec<ElemType::I8> : codec_detail::IntCodec<int8_t> {};
template <> struct Codec<ElemType::U8> : codec_detail::IntCodec<uint8_t> {};
template <> struct Codec<ElemType::I16> : codec_detail::IntCodec<int16_t> {};
template <> struct Codec<ElemType::I32> : codec_detail::IntCodec<int32_t> {};
template <> struct Codec<ElemType::I64> : codec_detail::IntCodec<int64_t> {};
template <> struct Codec<ElemType::Bool> {
  static constexpr size_t bytes = 1;
  static double load(const void* p) { return codec_detail::get<uint8_t>(p) != 0 ? 1.0 : 0.0; }
  static void store(double v, void* p) { codec_detail::put<uint8_t>(p, v != 0.0 ? 1 : 0); }
};

// Calls f(Codec<t>{}).
template <typename F> decltype(auto) visit_elem_type(ElemType t, F&& f) {
  switch (t) {
    case ElemType::F16: return f(Codec<ElemType::F16>{});
    case ElemType::BF16: return f(Codec<ElemType::BF16>{});
    case ElemType::F32: return f(Codec<ElemType::F32>{});
    case ElemType::I8: return f(Codec<ElemType::I8>{});
    case ElemType::U8: return f(Codec<ElemType::U8>{});
    case ElemType::I16: return f(Codec<ElemType::I16>{});
    case ElemType::I32: return f(Codec<ElemType::I32>{});
    case ElemType::I64: return f(Codec<ElemType::I64>{});
    case ElemType::Bool: return f(Codec<ElemType::Bool>{});
  }
  __builtin_unreachable();  // every enumerator is handled above
}

// The value after a round trip through the codec's type.
template <typename C> double round_through(double v) {
  alignas(8) unsigned char buf[8];
  C::store(v, buf);
  return C::load(buf);
}

inline void store_as(ElemType t, double v, void* dst) {
  visit_elem_type(t, [&](auto c) { decltype(c)::store(v, dst); });
}
inline double load_as(ElemType t, const void* src) {
  return visit_elem_type(t, [&](auto c) { return decltype(c)::load(src); });
}
inline double round_to(ElemType t, double v) {
  return visit_elem_type(t, [&](auto c) { return round_through<decltype(c)>(v); });
}
// Largest finite value of a floating type (used when a reference overflows).
double max_finite(ElemType t);

// A typed buffer: raw bytes in the element type plus its size in elements.
struct TypedBuffer {
  ElemType type = ElemType::F32;
  size_t count = 0;
  std::vector<unsigned char> bytes;

  TypedBuffer() = default;
  TypedBuffer(ElemType t, size_t n);  // n zero bytes per element
  double get(size_t i) const { return load_as(type, bytes.data() + i * info(type).bytes); }
  void set(size_t i, double v) { store_as(type, v, bytes.data() + i * info(type).bytes); }
  std::vector<double> to_double() const;
};

// `count` elements of type `t` at `bytes`, as doubles (TypedBuffer::to_double on bytes held elsewhere).
std::vector<double> to_double(ElemType t, const unsigned char* bytes, size_t count);

}  // namespace aoc::package
