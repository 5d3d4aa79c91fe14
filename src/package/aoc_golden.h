// The interface between the runner and an operator's golden reference (golden.cpp
// of a package, built into its own shared object, never into the kernel's).
// The golden computes in double precision from the exact input values the kernel
// received; the runner casts its outputs to the output dtype before comparing.
//
// A package's golden.cpp includes this header and defines
//     extern "C" int aoc_golden(AocGoldenCall* call);   // 0 on success
// This header depends on the C++ standard library only.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#define AOC_GOLDEN_ABI_VERSION 1

// The type goldens use for intermediate arithmetic. The reference is built with
// double; the runner builds the same source a second time with float to obtain a
// "same-precision CPU computation", which the precision screen's fallback compares
// error counts against in the small-value and cancellation regions.
#ifndef AOC_GOLDEN_REAL
#define AOC_GOLDEN_REAL double
#endif

extern "C" {

struct AocGoldenTensor {
  const char* name;
  int32_t rank;
  const int64_t* dims;
  int64_t size;  // element count
  double* data;  // an input's values are read-only: both goldens of a case read the same buffer
};

enum AocGoldenAttrKind : int32_t { AOC_ATTR_INT, AOC_ATTR_FLOAT, AOC_ATTR_BOOL, AOC_ATTR_STRING, AOC_ATTR_LIST_INT,
                                   AOC_ATTR_LIST_FLOAT };

struct AocGoldenAttr {
  const char* name;
  int32_t kind;
  int64_t i;          // int, bool
  double f;           // float
  const char* s;      // string
  const int64_t* li;  // list_int
  const double* lf;   // list_float
  int64_t len;        // list length
};

struct AocGoldenCall {
  int32_t abi_version;
  const AocGoldenTensor* inputs;
  int32_t n_inputs;
  AocGoldenTensor* outputs;
  int32_t n_outputs;
  const AocGoldenAttr* attrs;
  int32_t n_attrs;
  char error[512];  // set by the golden when it returns non-zero
};

typedef int (*AocGoldenFn)(AocGoldenCall*);
}

namespace golden_api {

using real = AOC_GOLDEN_REAL;

// Convenience accessors for golden.cpp; lookups by name keep goldens readable.
class Call {
 public:
  explicit Call(AocGoldenCall* c) : c_(c) {}
  const AocGoldenTensor& input(std::string_view name) const { return *find(c_->inputs, c_->n_inputs, name); }
  AocGoldenTensor& output(std::string_view name) const {
    return *const_cast<AocGoldenTensor*>(find(c_->outputs, c_->n_outputs, name));
  }
  bool has_input(std::string_view name) const { return lookup(c_->inputs, c_->n_inputs, name) != nullptr; }
  double attr_float(std::string_view name, double dflt) const {
    const AocGoldenAttr* a = attr(name);
    if (a == nullptr) return dflt;
    return a->kind == AOC_ATTR_FLOAT ? a->f : static_cast<double>(a->i);
  }
  int64_t attr_int(std::string_view name, int64_t dflt) const {
    const AocGoldenAttr* a = attr(name);
    return a == nullptr ? dflt : (a->kind == AOC_ATTR_FLOAT ? static_cast<int64_t>(a->f) : a->i);
  }
  bool attr_bool(std::string_view name, bool dflt) const {
    const AocGoldenAttr* a = attr(name);
    return a == nullptr ? dflt : a->i != 0;
  }
  // A string attribute (type = "string" in op.toml), or `dflt` when absent or not a string.
  const char* attr_str(std::string_view name, const char* dflt) const {
    const AocGoldenAttr* a = attr(name);
    return a != nullptr && a->kind == AOC_ATTR_STRING ? a->s : dflt;
  }
  const AocGoldenAttr* attr(std::string_view name) const {
    for (int32_t i = 0; i < c_->n_attrs; ++i)
      if (name == c_->attrs[i].name) return &c_->attrs[i];
    return nullptr;
  }
  // Returns the non-zero status a golden gives back on failure, with the message.
  int fail(const std::string& msg) const {
    std::snprintf(c_->error, sizeof(c_->error), "%s", msg.c_str());
    return 1;
  }
  // Size of the last axis and the number of rows before it (row-wise operators).
  static int64_t last_dim(const AocGoldenTensor& t) { return t.rank == 0 ? 1 : t.dims[t.rank - 1]; }
  static int64_t rows(const AocGoldenTensor& t) { return t.size / (last_dim(t) == 0 ? 1 : last_dim(t)); }

 private:
  template <typename T> static const T* lookup(const T* ts, int32_t n, std::string_view name) {
    for (int32_t i = 0; i < n; ++i)
      if (name == ts[i].name) return &ts[i];
    return nullptr;
  }
  template <typename T> const T* find(const T* ts, int32_t n, std::string_view name) const {
    const T* t = lookup(ts, n, name);
    if (t == nullptr) {
      // A golden asking for a tensor the package does not declare is a package bug;
      // the runner catches this and reports it as a golden failure.
      throw std::invalid_argument("golden.cpp asks for tensor '" + std::string(name) +
                                  "', which op.toml does not declare");
    }
    return t;
  }
  AocGoldenCall* c_;
};

// Inputs broadcast to an output's shape by NumPy's rules (dimensions aligned from the right; an
// input dimension of 1, or a missing one, repeats). Step through the output's elements in order
// with next() and read each input at offset(input):
//   golden_api::Broadcast at(y);
//   for (int64_t i = 0; i < y.size; ++i, at.next()) y.data[i] = a.data[at.offset(a)] + b.data[at.offset(b)];
class Broadcast {
 public:
  explicit Broadcast(const AocGoldenTensor& out) : out_(out), idx_(static_cast<size_t>(out.rank > 0 ? out.rank : 1), 0) {}
  // Whether `t` broadcasts to the output's shape.
  bool fits(const AocGoldenTensor& t) const {
    if (t.rank > out_.rank) return t.size == out_.size;
    for (int32_t d = 0; d < t.rank; ++d) {
      const int64_t td = t.dims[t.rank - 1 - d], od = out_.dims[out_.rank - 1 - d];
      if (td != 1 && td != od) return false;
    }
    return true;
  }
  // Offset in `t` of the current output element (a same-size input is read element for element).
  int64_t offset(const AocGoldenTensor& t) const {
    if (t.size == out_.size) return flat_;
    int64_t off = 0, stride = 1;
    for (int32_t d = t.rank - 1; d >= 0; --d) {
      const int32_t od = out_.rank - (t.rank - d);
      if (t.dims[d] != 1 && od >= 0) off += idx_[static_cast<size_t>(od)] * stride;
      stride *= t.dims[d];
    }
    return off;
  }
  // Moves to the next output element.
  void next() {
    ++flat_;
    for (int32_t d = out_.rank - 1; d >= 0; --d) {
      if (++idx_[static_cast<size_t>(d)] < out_.dims[d]) return;
      idx_[static_cast<size_t>(d)] = 0;
    }
  }

 private:
  const AocGoldenTensor& out_;
  std::vector<int64_t> idx_;  // multi-index of the current output element
  int64_t flat_ = 0;
};

}  // namespace golden_api
