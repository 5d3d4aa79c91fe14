// Reference of copy_tile: per core, the first 16 elements of the last tile it copied.
#include "aoc_golden.h"

extern "C" int aoc_golden(AocGoldenCall* raw) {
  golden_api::Call call(raw);
  const AocGoldenTensor& x = call.input("x");
  AocGoldenTensor& z = call.output("z");
  const int64_t tileRows = call.attr_int("tile_rows", 64);
  const int64_t tileCols = call.attr_int("tile_cols", 1024);
  const int64_t cores = call.attr_int("cores", 48);
  if (x.rank != 2) return call.fail("x must be a matrix");
  const int64_t rows = x.dims[0], cols = x.dims[1];
  const int64_t rowsPerCore = rows / cores;
  for (int64_t k = 0; k < cores; ++k) {
    const int64_t r0 = (k + 1) * rowsPerCore - tileRows;
    const int64_t c0 = cols - tileCols;
    for (int64_t j = 0; j < 16; ++j) z.data[k * 16 + j] = x.data[r0 * cols + c0 + j];
  }
  return 0;
}
