#include "ops/dtype.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "aoc/half.h"

namespace aoc::op {
namespace {

constexpr ElemInfo kInfos[] = {
    {ElemType::F16, "float16", "half", "DT_FLOAT16", 1, 2, true},
    {ElemType::BF16, "bfloat16", "bfloat16_t", "DT_BF16", 27, 2, true},
    {ElemType::F32, "float32", "float", "DT_FLOAT", 0, 4, true},
    {ElemType::I8, "int8", "int8_t", "DT_INT8", 2, 1, false},
    {ElemType::U8, "uint8", "uint8_t", "DT_UINT8", 4, 1, false},
    {ElemType::I16, "int16", "int16_t", "DT_INT16", 6, 2, false},
    {ElemType::I32, "int32", "int32_t", "DT_INT32", 3, 4, false},
    {ElemType::I64, "int64", "int64_t", "DT_INT64", 9, 8, false},
    {ElemType::Bool, "bool", "bool", "DT_BOOL", 12, 1, false},
};

struct Alias { const char* name; ElemType type; };
constexpr Alias kAliases[] = {
    {"fp16", ElemType::F16}, {"half", ElemType::F16},       {"bf16", ElemType::BF16},
    {"fp32", ElemType::F32}, {"float", ElemType::F32},      {"int", ElemType::I32},
};

template <typename I> I saturate(double v) {
  if (std::isnan(v)) return 0;
  const double r = std::nearbyint(v);
  if (r <= static_cast<double>(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
  if (r >= static_cast<double>(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
  return static_cast<I>(r);
}

template <typename T> void put(void* dst, T v) { std::memcpy(dst, &v, sizeof(T)); }
template <typename T> T get(const void* src) {
  T v;
  std::memcpy(&v, src, sizeof(T));
  return v;
}

}  // namespace

const ElemInfo& info(ElemType t) { return kInfos[static_cast<size_t>(t)]; }

std::optional<ElemType> parse_elem_type(std::string_view s) {
  for (const auto& i : kInfos)
    if (s == i.name) return i.type;
  for (const auto& a : kAliases)
    if (s == a.name) return a.type;
  return std::nullopt;
}

std::string known_elem_types() {
  std::string out;
  for (const auto& i : kInfos) {
    if (!out.empty()) out += ", ";
    out += i.name;
  }
  return out;
}

void store_as(ElemType t, double v, void* dst) {
  switch (t) {
    case ElemType::F16: put<uint16_t>(dst, half(v).bits); break;
    case ElemType::BF16: put<uint16_t>(dst, bfloat16_t(v).bits); break;
    case ElemType::F32: put<float>(dst, static_cast<float>(v)); break;
    case ElemType::I8: put<int8_t>(dst, saturate<int8_t>(v)); break;
    case ElemType::U8: put<uint8_t>(dst, saturate<uint8_t>(v)); break;
    case ElemType::I16: put<int16_t>(dst, saturate<int16_t>(v)); break;
    case ElemType::I32: put<int32_t>(dst, saturate<int32_t>(v)); break;
    case ElemType::I64: put<int64_t>(dst, saturate<int64_t>(v)); break;
    case ElemType::Bool: put<uint8_t>(dst, v != 0.0 ? 1 : 0); break;
  }
}

double load_as(ElemType t, const void* src) {
  switch (t) {
    case ElemType::F16: return aoc::half_bits_to_float(get<uint16_t>(src));
    case ElemType::BF16: return aoc::bf16_bits_to_float(get<uint16_t>(src));
    case ElemType::F32: return get<float>(src);
    case ElemType::I8: return get<int8_t>(src);
    case ElemType::U8: return get<uint8_t>(src);
    case ElemType::I16: return get<int16_t>(src);
    case ElemType::I32: return get<int32_t>(src);
    case ElemType::I64: return static_cast<double>(get<int64_t>(src));
    case ElemType::Bool: return get<uint8_t>(src) != 0 ? 1.0 : 0.0;
  }
  return 0.0;
}

double max_finite(ElemType t) {
  switch (t) {
    case ElemType::F16: return 65504.0;
    case ElemType::BF16: return aoc::bf16_bits_to_float(0x7f7f);
    case ElemType::F32: return std::numeric_limits<float>::max();
    default: return std::numeric_limits<double>::max();
  }
}

std::vector<double> TypedBuffer::to_double() const {
  std::vector<double> out(count);
  for (size_t i = 0; i < count; ++i) out[i] = get(i);
  return out;
}

}  // namespace aoc::op
