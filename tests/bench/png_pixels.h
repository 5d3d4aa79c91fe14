// Reads an 8-bit RGB or RGBA PNG (what Chromium's --screenshot writes) into RGB pixels, with
// zlib for the image data and the five PNG row filters undone.
#pragma once
#include <zlib.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace aoc::testing {

struct Image {
  uint32_t width = 0, height = 0;
  std::vector<std::array<uint8_t, 3>> pixels;  // row-major
  std::string error;
};

inline Image read_png(const std::string& path) {
  Image img;
  std::ifstream in(path, std::ios::binary);
  const std::vector<uint8_t> f((std::istreambuf_iterator<char>(in)), {});
  if (f.size() < 8 || f[1] != 'P' || f[2] != 'N' || f[3] != 'G') {
    img.error = "not a PNG file";
    return img;
  }
  const auto be32 = [&](size_t i) { return uint32_t(f[i]) << 24 | uint32_t(f[i + 1]) << 16 | uint32_t(f[i + 2]) << 8 | f[i + 3]; };
  std::vector<uint8_t> idat;
  int color = -1, depth = 0, interlace = 0;
  for (size_t i = 8; i + 8 <= f.size();) {
    const uint32_t len = be32(i);
    const std::string type(f.begin() + i + 4, f.begin() + i + 8);
    if (i + 12 + len > f.size()) break;
    if (type == "IHDR") {
      img.width = be32(i + 8);
      img.height = be32(i + 12);
      depth = f[i + 16];
      color = f[i + 17];
      interlace = f[i + 20];
    } else if (type == "IDAT") {
      idat.insert(idat.end(), f.begin() + i + 8, f.begin() + i + 8 + len);
    }
    i += 12 + len;
  }
  if (depth != 8 || (color != 2 && color != 6) || interlace != 0) {
    img.error = "unsupported PNG (depth " + std::to_string(depth) + ", color type " + std::to_string(color) + ")";
    return img;
  }
  const size_t bpp = color == 6 ? 4 : 3, stride = img.width * bpp;
  std::vector<uint8_t> raw(img.height * (stride + 1));
  uLongf n = raw.size();
  if (uncompress(raw.data(), &n, idat.data(), idat.size()) != Z_OK || n != raw.size()) {
    img.error = "image data does not inflate";
    return img;
  }
  std::vector<uint8_t> prev(stride, 0), row(stride);
  for (uint32_t y = 0; y < img.height; ++y) {
    const uint8_t filter = raw[y * (stride + 1)];
    const uint8_t* src = &raw[y * (stride + 1) + 1];
    for (size_t x = 0; x < stride; ++x) {
      const int a = x >= bpp ? row[x - bpp] : 0, b = prev[x], c = x >= bpp ? prev[x - bpp] : 0;
      int pred = 0;
      if (filter == 1) pred = a;
      else if (filter == 2) pred = b;
      else if (filter == 3) pred = (a + b) / 2;
      else if (filter == 4) {
        const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
        pred = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      row[x] = static_cast<uint8_t>(src[x] + pred);
    }
    for (uint32_t x = 0; x < img.width; ++x) img.pixels.push_back({row[x * bpp], row[x * bpp + 1], row[x * bpp + 2]});
    prev = row;
  }
  return img;
}

}  // namespace aoc::testing
