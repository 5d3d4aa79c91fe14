// ge::TypeUtils: names and sizes of data types and formats, as host tiling code prints them.
#pragma once
#include <cstdint>
#include <string>

#include "graph/types.h"

namespace ge {

class TypeUtils {
 public:
  static std::string DataTypeToSerialString(DataType t) {
    switch (t) {
      case DT_FLOAT: return "DT_FLOAT";
      case DT_FLOAT16: return "DT_FLOAT16";
      case DT_BF16: return "DT_BF16";
      case DT_INT8: return "DT_INT8";
      case DT_UINT8: return "DT_UINT8";
      case DT_INT16: return "DT_INT16";
      case DT_UINT16: return "DT_UINT16";
      case DT_INT32: return "DT_INT32";
      case DT_UINT32: return "DT_UINT32";
      case DT_INT64: return "DT_INT64";
      case DT_UINT64: return "DT_UINT64";
      case DT_DOUBLE: return "DT_DOUBLE";
      case DT_BOOL: return "DT_BOOL";
      case DT_STRING: return "DT_STRING";
      case DT_INT4: return "DT_INT4";
      default: return "DT_UNDEFINED";
    }
  }
  static AscendString DataTypeToAscendString(DataType t) { return AscendString(DataTypeToSerialString(t).c_str()); }
  // Bytes per element; false for types without a fixed byte size.
  static bool GetDataTypeLength(DataType t, uint32_t& length) {
    const int n = GetSizeByDataType(t);
    if (n <= 0) return false;
    length = static_cast<uint32_t>(n);
    return true;
  }
  static std::string FormatToSerialString(Format f) {
    switch (f) {
      case FORMAT_NCHW: return "NCHW";
      case FORMAT_NHWC: return "NHWC";
      case FORMAT_ND: return "ND";
      case FORMAT_NC1HWC0: return "NC1HWC0";
      case FORMAT_FRACTAL_Z: return "FRACTAL_Z";
      case FORMAT_FRACTAL_NZ: return "FRACTAL_NZ";
      default: return "RESERVED";
    }
  }
  static AscendString FormatToAscendString(Format f) { return AscendString(FormatToSerialString(f).c_str()); }
};

}  // namespace ge
