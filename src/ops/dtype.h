// Element types an operator package can declare, with everything the runner needs
// to know about each: the spelling in op.toml, the C++ type a kernel sees through
// DTYPE_<ARG>, the ge::DataType name for ORIG_DTYPE_<ARG>, the byte size, and the
// conversion between stored bytes and double (the golden's precision).
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aoc::op {

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

// Rounds a double to the element type (round to nearest even for floats, saturating
// for integers) and stores it at `dst`.
void store_as(ElemType t, double v, void* dst);
double load_as(ElemType t, const void* src);
// The value after a round trip through the element type.
inline double round_to(ElemType t, double v) {
  alignas(8) unsigned char buf[8];
  store_as(t, v, buf);
  return load_as(t, buf);
}
// Largest finite value of a floating type (used when a reference overflows).
double max_finite(ElemType t);

// A typed buffer: raw bytes in the element type plus its size in elements.
struct TypedBuffer {
  ElemType type = ElemType::F32;
  size_t count = 0;
  std::vector<unsigned char> bytes;

  TypedBuffer() = default;
  TypedBuffer(ElemType t, size_t n) : type(t), count(n), bytes(n * info(t).bytes) {}
  double get(size_t i) const { return load_as(type, bytes.data() + i * info(type).bytes); }
  void set(size_t i, double v) { store_as(type, v, bytes.data() + i * info(type).bytes); }
  std::vector<double> to_double() const;
};

}  // namespace aoc::op
