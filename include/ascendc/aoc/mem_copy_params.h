// Parameter structs of the data-movement API. Constructors take any integer types
// and convert inside, so that the brace forms kernels write ({1, n * sizeof(T), 0, 0})
// compile without narrowing errors.
#pragma once
#include <cstdint>

namespace AscendC {

// DataCopy: blockLen and both gaps in 32-byte blocks. srcGap/dstGap are the newer names.
struct DataCopyParams {
  DataCopyParams() = default;
  template <typename C, typename L, typename S, typename D>
  DataCopyParams(C count, L len, S srcStrideIn, D dstStrideIn)
      : blockCount(static_cast<uint16_t>(count)), blockLen(static_cast<uint16_t>(len)),
        srcStride(static_cast<uint16_t>(srcStrideIn)), dstStride(static_cast<uint16_t>(dstStrideIn)) {}

  uint16_t blockCount = 1;
  uint16_t blockLen = 0;
  union {
    uint16_t srcStride = 0;
    uint16_t srcGap;
  };
  union {
    uint16_t dstStride = 0;
    uint16_t dstGap;
  };
};

// DataCopyPad: blockLen in bytes; the GM-side stride in bytes, the UB-side stride in 32-byte blocks.
struct DataCopyExtParams {
  DataCopyExtParams() = default;
  template <typename C, typename L, typename S, typename D, typename R = uint32_t>
  DataCopyExtParams(C count, L len, S srcStrideIn, D dstStrideIn, R rsvIn = 0)
      : blockCount(static_cast<uint16_t>(count)), blockLen(static_cast<uint32_t>(len)),
        srcStride(static_cast<uint32_t>(srcStrideIn)), dstStride(static_cast<uint32_t>(dstStrideIn)),
        rsv(static_cast<uint32_t>(rsvIn)) {}

  uint16_t blockCount = 1;
  uint32_t blockLen = 0;
  uint32_t srcStride = 0;
  uint32_t dstStride = 0;
  uint32_t rsv = 0;
};

// Legacy padding parameters of DataCopyPad (with DataCopyParams).
struct DataCopyPadParams {
  DataCopyPadParams() = default;
  template <typename P, typename L, typename R, typename V>
  DataCopyPadParams(P isPadIn, L left, R right, V value)
      : isPad(static_cast<bool>(isPadIn)), leftPadding(static_cast<uint8_t>(left)),
        rightPadding(static_cast<uint8_t>(right)), paddingValue(static_cast<uint64_t>(value)) {}

  bool isPad = false;
  uint8_t leftPadding = 0;   // elements
  uint8_t rightPadding = 0;  // elements
  uint64_t paddingValue = 0;
};

template <typename T>
struct DataCopyPadExtParams {
  DataCopyPadExtParams() = default;
  template <typename P, typename L, typename R, typename V>
  DataCopyPadExtParams(P isPadIn, L left, R right, V value)
      : isPad(static_cast<bool>(isPadIn)), leftPadding(static_cast<uint8_t>(left)),
        rightPadding(static_cast<uint8_t>(right)), paddingValue(static_cast<T>(value)) {}

  bool isPad = false;
  uint8_t leftPadding = 0;   // elements
  uint8_t rightPadding = 0;  // elements
  T paddingValue = T(0);
};

// ND -> NZ format conversion on GM -> L1/UB copies (layout only; the conversion
// itself belongs to the cube data path).
struct Nd2NzParams {
  Nd2NzParams() = default;
  template <typename A, typename B, typename C, typename D, typename E, typename F, typename G, typename H>
  Nd2NzParams(A ndNumIn, B nValueIn, C dValueIn, D srcNdMatrixStrideIn, E srcDValueIn, F dstNzC0StrideIn,
              G dstNzNStrideIn, H dstNzMatrixStrideIn)
      : ndNum(static_cast<uint16_t>(ndNumIn)), nValue(static_cast<uint16_t>(nValueIn)),
        dValue(static_cast<uint16_t>(dValueIn)), srcNdMatrixStride(static_cast<uint16_t>(srcNdMatrixStrideIn)),
        srcDValue(static_cast<uint16_t>(srcDValueIn)), dstNzC0Stride(static_cast<uint16_t>(dstNzC0StrideIn)),
        dstNzNStride(static_cast<uint16_t>(dstNzNStrideIn)),
        dstNzMatrixStride(static_cast<uint16_t>(dstNzMatrixStrideIn)) {}

  uint16_t ndNum = 0;
  uint16_t nValue = 0;
  uint16_t dValue = 0;
  uint16_t srcNdMatrixStride = 0;
  uint16_t srcDValue = 0;
  uint16_t dstNzC0Stride = 0;
  uint16_t dstNzNStride = 0;
  uint16_t dstNzMatrixStride = 0;
};

}  // namespace AscendC
