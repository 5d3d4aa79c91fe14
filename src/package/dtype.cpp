#include "package/dtype.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "runtime/large_buffer.h"

namespace aoc::package {
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

double max_finite(ElemType t) {
  switch (t) {
    case ElemType::F16: return 65504.0;
    case ElemType::BF16: return aoc::bf16_bits_to_float(0x7f7f);
    case ElemType::F32: return std::numeric_limits<float>::max();
    default: return std::numeric_limits<double>::max();
  }
}

TypedBuffer::TypedBuffer(ElemType t, size_t n) : type(t), count(n) {
  aoc::runtime::reserve_large(bytes, n * info(t).bytes);
  bytes.resize(n * info(t).bytes);
}

std::vector<double> TypedBuffer::to_double() const { return aoc::package::to_double(type, bytes.data(), count); }

std::vector<double> to_double(ElemType t, const unsigned char* bytes, size_t count) {
  std::vector<double> out;
  aoc::runtime::reserve_large(out, count);
  visit_elem_type(t, [&](auto c) {
    using C = decltype(c);
    for (size_t i = 0; i < count; ++i) out.push_back(C::load(bytes + i * C::bytes));
  });
  return out;
}

}  // namespace aoc::package
