// Kernel of TransposeCustom (expert): y[..., j, i] = x[..., i, j]. The matrices are cut into
// tiles fitted to their shape (see the tiling) and each core takes an even share of the
// tiles. A tile is read with one copy, transposed in UB by one Gather through a table of
// byte offsets built once per core, and written with one copy. A tile that spans all
// columns of x is read as one contiguous burst (rows packed at pitch C); one that spans
// all rows is written as one contiguous burst (rows of y packed at pitch R). The Gather
// covers only the tile's valid rows of y, and a single row or column is copied through.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t HEAD_ROWS = 8;  // rows of the offset table computed directly, the rest by doubling

// TilingT is the tiling class GET_TILING_DATA yields.
template <typename T, typename TilingT>
class KernelTranspose {
public:
    __aicore__ inline KernelTranspose() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const TilingT& tiling)
    {
        this->t = tiling;
        uint32_t blockIdx = AscendC::GetBlockIdx();
        if (blockIdx < tiling.formerNum) {
            this->tileCount = tiling.formerTiles;
            this->firstTile = tiling.formerTiles * blockIdx;
        } else {
            this->tileCount = tiling.tailTiles;
            this->firstTile = tiling.formerTiles * tiling.formerNum + tiling.tailTiles * (blockIdx - tiling.formerNum);
        }
        xGm.SetGlobalBuffer((__gm__ T*)x);
        yGm.SetGlobalBuffer((__gm__ T*)y);
        this->tableElems = tiling.tileCols * tiling.outPitch;
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tiling.tileRows * tiling.inPitch * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, this->tableElems * sizeof(T));
        pipe.InitBuffer(offsetBuf, this->tableElems * sizeof(uint32_t));
        uint32_t headRows = tiling.tileCols < HEAD_ROWS ? tiling.tileCols : HEAD_ROWS;
        pipe.InitBuffer(columnBuf, headRows * tiling.outPitch * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        if (this->tileCount == 0) {
            return;
        }
        // A single row or column is laid out the same way transposed: copy the bytes through.
        if (t.rows == 1 || t.cols == 1) {
            for (uint32_t k = 0; k < this->tileCount; k++) {
                CopyThrough(k);
            }
            return;
        }
        // The first tile's read is in flight while the offset table is built.
        CopyIn(0);
        BuildOffsets();
        for (uint32_t k = 0; k < this->tileCount; k++) {
            if (k + 1 < this->tileCount) {
                CopyIn(k + 1);
            }
            Compute(k);
            CopyOut(k);
        }
    }

private:
    struct Tile {
        uint64_t xOffset;
        uint64_t yOffset;
        uint32_t tr;  // valid rows of x
        uint32_t tc;  // valid columns of x
    };
    __aicore__ inline Tile Locate(uint32_t k) const
    {
        uint32_t tilesPerMatrix = t.rowTiles * t.colTiles;
        uint32_t tile = this->firstTile + k;
        uint64_t matrixBase = static_cast<uint64_t>(tile / tilesPerMatrix) * t.rows * t.cols;
        uint32_t inMatrix = tile % tilesPerMatrix;
        uint32_t r0 = inMatrix / t.colTiles * t.tileRows;
        uint32_t c0 = inMatrix % t.colTiles * t.tileCols;
        Tile tile_;
        tile_.tr = t.rows - r0 < t.tileRows ? t.rows - r0 : t.tileRows;
        tile_.tc = t.cols - c0 < t.tileCols ? t.cols - c0 : t.tileCols;
        tile_.xOffset = matrixBase + static_cast<uint64_t>(r0) * t.cols + c0;
        tile_.yOffset = matrixBase + static_cast<uint64_t>(c0) * t.rows + r0;
        return tile_;
    }
    // Output element i = c * outPitch + r of a tile comes from input byte
    // (r * inPitch + c) * sizeof(T). The first HEAD_ROWS rows of y are computed directly: the
    // row c = floor((i + 0.5) / outPitch) in float (exact: i < 2^16 and the half keeps the
    // quotient off integers), whatever the pitch. Rows [k, 2k) are then rows [0, k) shifted
    // by k elements, one Adds each for k = 8, 16, ...: k * outPitch offsets of 4 B start on a
    // 32 B block because k is a multiple of 8.
    __aicore__ inline void BuildOffsets()
    {
        AscendC::LocalTensor<float> pos = offsetBuf.Get<float>();
        AscendC::LocalTensor<float> col = columnBuf.Get<float>();
        AscendC::LocalTensor<int32_t> offsets = offsetBuf.Get<int32_t>();
        uint32_t headRows = t.tileCols < HEAD_ROWS ? t.tileCols : HEAD_ROWS;
        uint32_t n = headRows * t.outPitch;
        AscendC::CreateVecIndex(pos, 0.0f, n);
        AscendC::Adds(col, pos, 0.5f, n);
        AscendC::Muls(col, col, 1.0f / static_cast<float>(t.outPitch), n);
        AscendC::Cast(col, col, AscendC::RoundMode::CAST_FLOOR, n);
        AscendC::Axpy(pos, col, -static_cast<float>(t.outPitch), n);                    // pos = r
        AscendC::Muls(pos, pos, static_cast<float>(t.inPitch * sizeof(T)), n);
        AscendC::Axpy(pos, col, static_cast<float>(sizeof(T)), n);                      // + c bytes
        AscendC::Cast(offsets, pos, AscendC::RoundMode::CAST_RINT, n);
        for (uint32_t k = HEAD_ROWS; k < t.tileCols; k *= 2) {
            uint32_t rowsNow = t.tileCols - k < k ? t.tileCols - k : k;
            AscendC::PipeBarrier<PIPE_V>();
            AscendC::Adds(offsets[k * t.outPitch], offsets, static_cast<int32_t>(k * sizeof(T)), rowsNow * t.outPitch);
        }
    }
    __aicore__ inline void CopyIn(uint32_t k)
    {
        Tile tile = Locate(k);
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        if (t.colTiles == 1) {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(tile.tr * t.cols * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPad(xLocal, xGm[tile.xOffset], copyParams, padParams);
        } else {
            AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(tile.tr),
                                                  static_cast<uint32_t>(tile.tc * sizeof(T)),
                                                  static_cast<uint32_t>((t.cols - tile.tc) * sizeof(T)),
                                                  UbGap(tile.tc, t.inPitch), 0};
            AscendC::DataCopyPad(xLocal, xGm[tile.xOffset], copyParams, padParams);
        }
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void Compute(uint32_t k)
    {
        Tile tile = Locate(k);
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        AscendC::LocalTensor<uint32_t> offsets = offsetBuf.Get<uint32_t>();
        AscendC::Gather(yLocal, xLocal, offsets, 0, tile.tc * t.outPitch);
        outQueueY.EnQue<T>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t k)
    {
        Tile tile = Locate(k);
        AscendC::LocalTensor<T> yLocal = outQueueY.DeQue<T>();
        if (t.rowTiles == 1) {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(tile.tc * t.rows * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[tile.yOffset], yLocal, copyParams);
        } else {
            AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(tile.tc),
                                                  static_cast<uint32_t>(tile.tr * sizeof(T)),
                                                  UbGap(tile.tr, t.outPitch),
                                                  static_cast<uint32_t>((t.rows - tile.tr) * sizeof(T)), 0};
            AscendC::DataCopyPad(yGm[tile.yOffset], yLocal, copyParams);
        }
        outQueueY.FreeTensor(yLocal);
    }
    // One tile of a single row or column through UB (the offset table's buffer, unused then).
    __aicore__ inline void CopyThrough(uint32_t k)
    {
        Tile tile = Locate(k);
        AscendC::LocalTensor<T> buf = offsetBuf.Get<T>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(tile.tr * tile.tc * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(buf, xGm[tile.xOffset], copyParams, padParams);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(0);
        AscendC::DataCopyPad(yGm[tile.yOffset], buf, copyParams);
        AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(0);
    }
    // Gap, in 32 B blocks, between rows of `len` elements laid out at `pitch` (a multiple of 32 B).
    __aicore__ inline uint32_t UbGap(uint32_t len, uint32_t pitch) const
    {
        return (pitch * sizeof(T) - (len * sizeof(T) + 31) / 32 * 32) / 32;
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> offsetBuf;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> columnBuf;
    AscendC::GlobalTensor<T> xGm, yGm;
    TilingT t;
    uint32_t tileCount = 0;
    uint32_t firstTile = 0;
    uint32_t tableElems = 0;
};

extern "C" __global__ __aicore__ void transpose_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelTranspose<DTYPE_X, decltype(tilingData)> op;
    op.Init(x, y, tilingData);
    op.Process();
}
