// Printing from a kernel: AscendC::printf / PRINTF and DumpTensor. On the device the text goes
// to a dump buffer of each core (at most 1 MB per core, headers included; what does not fit is
// not printed) and is shown after the kernel ends, core by core. Here each core keeps its text
// (CoreState::printed, the same 1 MB), the launcher hands it over per core, and the evaluator
// reports it with the case (`printed`, first trial only). Printing costs no simulated time: the
// device's cost of a dump is not modelled, so a kernel with and without its prints times the
// same. Compiled out with -DASCENDC_DUMP=0, as on the device.
//
// Conversions: %d %i %u %x %X %o %c %s %p %f %F %e %E %g %G %a with flags, width, precision
// and the length modifiers h hh l ll z j t; %% prints a percent sign. half and bfloat16_t
// arguments print as floats. A conversion without an argument prints "<missing>".
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <type_traits>

#include "aoc/core_state.h"
#include "aoc/half.h"
#include "aoc/instrumentation.h"
#include "aoc/tensor.h"

namespace aoc {

inline constexpr size_t kPrintBytesPerCore = size_t{1} << 20;

// Appends to the calling core's printed text, up to kPrintBytesPerCore.
AOC_API_UNCOUNTED inline void print_append(const std::string& text) {
  CoreState& c = core();
  if (c.printed.size() >= kPrintBytesPerCore) return;
  c.printed.append(text, 0, kPrintBytesPerCore - c.printed.size());
}

// One printf argument, by the class of value it holds.
struct PrintArg {
  enum class Kind : uint8_t { None, Signed, Unsigned, Real, Text, Pointer } kind = Kind::None;
  int64_t i = 0;
  uint64_t u = 0;
  double f = 0;
  const char* s = nullptr;
  const void* p = nullptr;
};

template <typename T> AOC_API_UNCOUNTED PrintArg print_arg(const T& v) {
  PrintArg a;
  if constexpr (std::is_floating_point_v<T>) {
    a.kind = PrintArg::Kind::Real;
    a.f = static_cast<double>(v);
  } else if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>) {
    a.kind = PrintArg::Kind::Real;
    a.f = static_cast<double>(static_cast<float>(v));
  } else if constexpr (std::is_same_v<T, bool>) {
    a.kind = PrintArg::Kind::Signed;
    a.i = v ? 1 : 0;
  } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    a.kind = PrintArg::Kind::Signed;
    a.i = static_cast<int64_t>(v);
  } else if constexpr (std::is_integral_v<T> || std::is_enum_v<T>) {
    a.kind = PrintArg::Kind::Unsigned;
    a.u = static_cast<uint64_t>(v);
  } else if constexpr (std::is_convertible_v<T, const char*>) {
    a.kind = PrintArg::Kind::Text;
    a.s = v;
  } else if constexpr (std::is_pointer_v<T>) {
    a.kind = PrintArg::Kind::Pointer;
    a.p = reinterpret_cast<const void*>(v);
  } else {
    static_assert(std::is_arithmetic_v<T>, "AscendC::printf prints numbers, strings and pointers");
  }
  return a;
}

// `fmt` with its conversions filled from `args` (n of them).
AOC_API_UNCOUNTED inline std::string format_print(const char* fmt, const PrintArg* args, size_t n) {
  std::string out;
  size_t next = 0;
  for (const char* c = fmt; *c != '\0'; ++c) {
    if (*c != '%') {
      out += *c;
      continue;
    }
    if (c[1] == '%') {
      out += '%';
      ++c;
      continue;
    }
    // The spec: flags, width, precision, length, conversion (a '*' width is not supported).
    const char* start = c++;
    while (*c != '\0' && std::string_view("-+ #0").find(*c) != std::string_view::npos) ++c;
    while (*c >= '0' && *c <= '9') ++c;
    if (*c == '.') {
      ++c;
      while (*c >= '0' && *c <= '9') ++c;
    }
    const char* length = c;
    while (*c != '\0' && std::string_view("hlzjtL").find(*c) != std::string_view::npos) ++c;
    if (*c == '\0') {
      out.append(start);
      break;
    }
    const char conv = *c;
    // The spec without its length modifier, then the one the value is passed with.
    std::string spec(start, static_cast<size_t>(length - start));
    const PrintArg a = next < n ? args[next] : PrintArg{};
    ++next;
    if (a.kind == PrintArg::Kind::None) {
      out += "<missing>";
      continue;
    }
    // One conversion into `out`: snprintf sizes it first, so a long %s is kept whole.
    const auto put = [&out](const std::string& one, auto value) {
      const int len = std::snprintf(nullptr, 0, one.c_str(), value);
      if (len <= 0) return;
      std::string piece(static_cast<size_t>(len) + 1, '\0');
      std::snprintf(piece.data(), piece.size(), one.c_str(), value);
      piece.pop_back();
      out += piece;
    };
    switch (conv) {
      case 'd':
      case 'i':
        put(spec + "lld", static_cast<long long>(a.kind == PrintArg::Kind::Unsigned ? static_cast<int64_t>(a.u) : a.i));
        break;
      case 'u':
      case 'x':
      case 'X':
      case 'o':
        put(spec + "ll" + conv, static_cast<unsigned long long>(a.kind == PrintArg::Kind::Signed ? static_cast<uint64_t>(a.i) : a.u));
        break;
      case 'c':
        put(spec + "c", static_cast<int>(a.kind == PrintArg::Kind::Signed ? a.i : static_cast<int64_t>(a.u)));
        break;
      case 'f':
      case 'F':
      case 'e':
      case 'E':
      case 'g':
      case 'G':
      case 'a':
      case 'A': {
        const double v = a.kind == PrintArg::Kind::Real     ? a.f
                         : a.kind == PrintArg::Kind::Signed ? static_cast<double>(a.i)
                                                            : static_cast<double>(a.u);
        put(spec + conv, v);
        break;
      }
      case 's':
        put(spec + "s", a.kind == PrintArg::Kind::Text && a.s ? a.s : "(null)");
        break;
      case 'p':
        put(spec + "p", a.p);
        break;
      default:
        out.append(start, static_cast<size_t>(c - start + 1));
        continue;
    }
  }
  return out;
}

AOC_API_UNCOUNTED inline const char* print_type_name(DType t) {
  switch (t) {
    case DType::F16: return "float16";
    case DType::BF16: return "bfloat16";
    case DType::F32: return "float32";
    case DType::F64: return "float64";
    case DType::I8: return "int8";
    case DType::U8: return "uint8";
    case DType::I16: return "int16";
    case DType::U16: return "uint16";
    case DType::I32: return "int32";
    case DType::U32: return "uint32";
    case DType::I64: return "int64";
    case DType::U64: return "uint64";
    case DType::B1: return "bool";
    case DType::None: break;
  }
  return "unknown";
}

// "DumpTensor: desc=5, addr=0, data_type=float16, position=UB, dump_size=32" and the values in
// brackets; at most the tensor's own elements.
template <typename T>
AOC_API_UNCOUNTED void dump_values(const T* data, uint64_t available, uint32_t desc, uint64_t addr, const char* position,
                                   uint32_t count) {
  const uint64_t n = count < available ? count : available;
  std::string text = "DumpTensor: desc=" + std::to_string(desc) + ", addr=" + std::to_string(addr) +
                     ", data_type=" + print_type_name(dtype_of<T>()) + ", position=" + position +
                     ", dump_size=" + std::to_string(n) + "\n[";
  char buf[64];
  for (uint64_t i = 0; i < n; ++i) {
    if constexpr (std::is_integral_v<T>) std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(data[i]));
    else std::snprintf(buf, sizeof buf, "%f", static_cast<double>(static_cast<float>(data[i])));
    text += (i ? ", " : "");
    text += buf;
  }
  print_append(text + "]\n");
}

}  // namespace aoc

namespace AscendC {

template <typename... Args> AOC_API_UNCOUNTED void printf(const char* fmt, const Args&... args) {
#if !defined(ASCENDC_DUMP) || ASCENDC_DUMP != 0
  const aoc::PrintArg list[] = {aoc::print_arg(args)..., aoc::PrintArg{}};
  aoc::print_append(aoc::format_print(fmt, list, sizeof...(Args)));
#else
  (void)fmt;
  ((void)args, ...);
#endif
}

template <typename... Args> AOC_API_UNCOUNTED void PRINTF(const char* fmt, const Args&... args) { printf(fmt, args...); }

template <typename T> AOC_API_UNCOUNTED void DumpTensor(const LocalTensor<T>& t, uint32_t desc, uint32_t dumpSize) {
#if !defined(ASCENDC_DUMP) || ASCENDC_DUMP != 0
  aoc::dump_values(t.aoc_ptr(), t.GetSize(), desc, t.GetPhyAddr(), aoc::space_name(t.aoc_space()), dumpSize);
#else
  (void)t, (void)desc, (void)dumpSize;
#endif
}

template <typename T> AOC_API_UNCOUNTED void DumpTensor(const GlobalTensor<T>& t, uint32_t desc, uint32_t dumpSize) {
#if !defined(ASCENDC_DUMP) || ASCENDC_DUMP != 0
  aoc::dump_values(t.aoc_ptr(), t.GetSize(), desc, 0, "GM", dumpSize);
#else
  (void)t, (void)desc, (void)dumpSize;
#endif
}

}  // namespace AscendC
