// Host-side graph types shared by tiling code: ge::Shape, ge::DataType, status codes.
// gert::TilingContext and the OpDef registry build on these (register/, tiling/).
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace ge {

using graphStatus = uint32_t;
using char_t = char;
constexpr graphStatus GRAPH_SUCCESS = 0;
// Shape dimensions InferShape writes when a size is known only at run time.
constexpr int64_t UNKNOWN_DIM = -1;
constexpr int64_t UNKNOWN_DIM_NUM = -2;
constexpr graphStatus GRAPH_FAILED = 0xFFFFFFFF;
constexpr graphStatus GRAPH_PARAM_INVALID = 50331649;

enum DataType : int32_t {
  DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_INT16 = 6, DT_UINT16 = 7,
  DT_UINT32 = 8, DT_INT64 = 9, DT_UINT64 = 10, DT_DOUBLE = 11, DT_BOOL = 12, DT_STRING = 13,
  DT_COMPLEX64 = 16, DT_COMPLEX128 = 17, DT_COMPLEX32 = 33,
  DT_BF16 = 27, DT_INT4 = 29, DT_UNDEFINED = 28, DT_MAX = 100
};

enum Format : int32_t { FORMAT_NCHW = 0, FORMAT_NHWC = 1, FORMAT_ND = 2, FORMAT_NC1HWC0 = 3, FORMAT_FRACTAL_Z = 4,
                        FORMAT_CHWN = 14, FORMAT_HWCN = 16, FORMAT_NDHWC = 27, FORMAT_FRACTAL_NZ = 29,
                        FORMAT_NCDHW = 30, FORMAT_DHWCN = 31, FORMAT_NDC1HWC0 = 32, FORMAT_RESERVED = 40 };

inline int GetSizeByDataType(DataType t) {
  switch (t) {
    case DT_FLOAT: case DT_INT32: case DT_UINT32: return 4;
    case DT_FLOAT16: case DT_BF16: case DT_INT16: case DT_UINT16: return 2;
    case DT_INT8: case DT_UINT8: case DT_BOOL: return 1;
    case DT_INT64: case DT_UINT64: case DT_DOUBLE: case DT_COMPLEX64: return 8;
    case DT_COMPLEX128: return 16;
    case DT_COMPLEX32: return 4;
    default: return -1;
  }
}

class AscendString {
 public:
  AscendString() = default;
  AscendString(const char* s) : s_(s ? s : "") {}
  const char* GetString() const { return s_.c_str(); }
  size_t GetLength() const { return s_.size(); }
  bool operator<(const AscendString& o) const { return s_ < o.s_; }
  bool operator==(const AscendString& o) const { return s_ == o.s_; }

 private:
  std::string s_;
};

class Shape {
 public:
  Shape() = default;
  explicit Shape(std::vector<int64_t> dims) : dims_(std::move(dims)) {}
  Shape(std::initializer_list<int64_t> dims) : dims_(dims) {}
  size_t GetDimNum() const { return dims_.size(); }
  int64_t GetDim(size_t i) const { return i < dims_.size() ? dims_[i] : 0; }
  void SetDim(size_t i, int64_t v) { if (i < dims_.size()) dims_[i] = v; }
  void SetDimNum(size_t n) { dims_.resize(n, 1); }
  std::vector<int64_t> GetDims() const { return dims_; }
  // Product of the dimensions; 1 for a scalar (rank 0).
  int64_t GetShapeSize() const {
    int64_t n = 1;
    for (int64_t d : dims_) n *= d;
    return n;
  }
  bool operator==(const Shape& o) const { return dims_ == o.dims_; }

 private:
  std::vector<int64_t> dims_;
};

}  // namespace ge
