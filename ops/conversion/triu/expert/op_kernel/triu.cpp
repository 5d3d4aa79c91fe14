// Kernel of TriuCustom (expert): y = x on and above the `diagonal`-th diagonal of the last two
// axes, 0 below it. Each core owns a range of rows (of the last axis), walked in column
// chunks (the whole row when it fits in UB); tiles of rows stream through UB with double
// buffering at a padded row pitch (one multi-row DataCopyPad each way). Select writes x or 0,
// so NaN and inf below the diagonal become 0 as they must (a multiply by a 0/1 mask would not).
// expert: the baseline compares and selects row by row (two vector instructions and their
// scalar setup per row). Row i keeps column j when j >= i + diagonal, i.e. when
// j - r >= (i - r) + diagonal for the row's place r in the tile: with a per-chunk table of
// j - r for every element of a tile (built once per chunk, not per tile), all the tile's rows
// of one matrix take one CompareScalar and one Select.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// TilingT is the tiling class GET_TILING_DATA yields.
template <typename T, typename TilingT>
class KernelTriu {
    // Select moves bits; 16-bit types go through half so bf16 needs no separate path.
    using SelT = std::conditional_t<sizeof(T) == 2, half, float>;

public:
    __aicore__ inline KernelTriu() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const TilingT& tiling)
    {
        this->t = tiling;
        uint32_t blockIdx = AscendC::GetBlockIdx();
        if (blockIdx < tiling.formerNum) {
            this->blockRows = tiling.formerRows;
            this->rowOffset = static_cast<uint64_t>(tiling.formerRows) * blockIdx;
        } else {
            this->blockRows = tiling.tailRows;
            this->rowOffset = static_cast<uint64_t>(tiling.formerRows) * tiling.formerNum +
                              static_cast<uint64_t>(tiling.tailRows) * (blockIdx - tiling.formerNum);
        }
        this->tileNum = (this->blockRows + tiling.rowsPerTile - 1) / tiling.rowsPerTile;
        xGm.SetGlobalBuffer((__gm__ T*)x + this->rowOffset * tiling.cols,
                            static_cast<uint64_t>(this->blockRows) * tiling.cols);
        // x is read exactly once: its lines need not displace y in L2.
        xGm.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
        yGm.SetGlobalBuffer((__gm__ T*)y + this->rowOffset * tiling.cols,
                            static_cast<uint64_t>(this->blockRows) * tiling.cols);
        uint32_t tileElems = tiling.rowsPerTile * tiling.colsPadded;
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileElems * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileElems * sizeof(T));
        pipe.InitBuffer(indexBuf, tileElems * sizeof(float));
        pipe.InitBuffer(maskBuf, (tileElems / 8 + 31) / 32 * 32);
    }
    __aicore__ inline void Process()
    {
        if (this->blockRows == 0) {
            return;
        }
        for (uint32_t c0 = 0; c0 < t.cols; c0 += t.chunkCols) {
            this->col = c0;
            this->len = t.cols - c0 < t.chunkCols ? t.cols - c0 : t.chunkCols;
            // Gap between padded rows in UB, in 32 B blocks.
            uint32_t rowBytesAligned = (this->len * sizeof(T) + 31) / 32 * 32;
            this->ubRowGap = (t.colsPadded * sizeof(T) - rowBytesAligned) / 32;
            BuildIndex(c0);
            for (uint32_t i = 0; i < this->tileNum; i++) {
                uint32_t rows = (i == this->tileNum - 1) ? this->blockRows - i * t.rowsPerTile : t.rowsPerTile;
                uint64_t firstRow = static_cast<uint64_t>(i) * t.rowsPerTile;
                CopyIn(firstRow, rows);
                Compute(firstRow, rows);
                CopyOut(firstRow, rows);
            }
        }
    }

private:
    // index[r * colsPadded + c] = (c0 + c) - r for every row r of a tile: the column indices
    // of the chunk, then each further row the same shifted by its place in the tile.
    __aicore__ inline void BuildIndex(uint32_t c0)
    {
        AscendC::LocalTensor<float> index = indexBuf.Get<float>();
        AscendC::CreateVecIndex(index, static_cast<float>(c0), t.colsPadded);
        for (uint32_t r = 1; r < t.rowsPerTile && r < this->blockRows; r++) {
            AscendC::Adds(index[r * t.colsPadded], index, -static_cast<float>(r), t.colsPadded);
        }
    }
    __aicore__ inline void CopyIn(uint64_t firstRow, uint32_t rows)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(this->len * sizeof(T)),
                                              static_cast<uint32_t>((t.cols - this->len) * sizeof(T)), this->ubRowGap, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(xLocal, xGm[firstRow * t.cols + this->col], copyParams, padParams);
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void Compute(uint64_t firstRow, uint32_t rows)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        AscendC::LocalTensor<float> index = indexBuf.Get<float>();
        AscendC::LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();
        AscendC::LocalTensor<SelT> xSel = xLocal.template ReinterpretCast<SelT>();
        AscendC::LocalTensor<SelT> ySel = yLocal.template ReinterpretCast<SelT>();
        // One compare and one select per run of rows of the same matrix (a tile crosses into
        // the next matrix only when it holds that matrix's first row). Padding columns are
        // selected too; they are never copied out.
        uint32_t r = 0;
        while (r < rows) {
            uint32_t i = static_cast<uint32_t>((this->rowOffset + firstRow + r) % t.matRows);
            uint32_t run = t.matRows - i < rows - r ? t.matRows - i : rows - r;
            float limit = static_cast<float>(static_cast<int64_t>(i) - r + t.diagonal);
            uint32_t offset = r * t.colsPadded;
            AscendC::CompareScalar(mask, index[offset], limit, AscendC::CMPMODE::GE, run * t.colsPadded);
            AscendC::Select(ySel[offset], mask, xSel[offset], static_cast<SelT>(0),
                            AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, run * t.colsPadded);
            r += run;
        }
        outQueueY.EnQue<T>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint64_t firstRow, uint32_t rows)
    {
        AscendC::LocalTensor<T> yLocal = outQueueY.DeQue<T>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(this->len * sizeof(T)),
                                              this->ubRowGap, static_cast<uint32_t>((t.cols - this->len) * sizeof(T)), 0};
        AscendC::DataCopyPad(yGm[firstRow * t.cols + this->col], yLocal, copyParams);
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> indexBuf, maskBuf;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> yGm;
    TilingT t;
    uint32_t blockRows = 0;
    uint64_t rowOffset = 0;
    uint32_t tileNum = 0;
    uint32_t ubRowGap = 0;
    uint32_t col = 0;  // first column of the current chunk
    uint32_t len = 0;  // its columns
};

extern "C" __global__ __aicore__ void triu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelTriu<DTYPE_X, decltype(tilingData)> op;
    op.Init(x, y, tilingData);
    op.Process();
}
