// Kernel of TransposeCustom (expert): y[..., j, i] = x[..., i, j]. The matrices are cut into
// T x T tiles and each core takes an even share of the tiles. A tile is read with one
// strided copy (rows at pitch T in UB), transposed in UB by one Gather through a table
// of byte offsets built once per core, and written with one strided copy. Edge tiles
// move only their valid rows and columns; the rest of the UB tile is never written out.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

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
        uint32_t tileElems = tiling.tileSize * tiling.tileSize;
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileElems * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileElems * sizeof(T));
        pipe.InitBuffer(offsetBuf, tileElems * sizeof(uint32_t));
        BuildOffsets();
    }
    __aicore__ inline void Process()
    {
        uint32_t tilesPerMatrix = t.rowTiles * t.colTiles;
        for (uint32_t k = 0; k < this->tileCount; k++) {
            uint32_t tile = this->firstTile + k;
            uint64_t matrixBase = static_cast<uint64_t>(tile / tilesPerMatrix) * t.rows * t.cols;
            uint32_t inMatrix = tile % tilesPerMatrix;
            uint32_t r0 = inMatrix / t.colTiles * t.tileSize;
            uint32_t c0 = inMatrix % t.colTiles * t.tileSize;
            uint32_t tr = t.rows - r0 < t.tileSize ? t.rows - r0 : t.tileSize;
            uint32_t tc = t.cols - c0 < t.tileSize ? t.cols - c0 : t.tileSize;
            CopyIn(matrixBase + static_cast<uint64_t>(r0) * t.cols + c0, tr, tc);
            Compute();
            CopyOut(matrixBase + static_cast<uint64_t>(c0) * t.rows + r0, tr, tc);
        }
    }

private:
    // Output element c * T + r of a tile comes from input byte (r * T + c) * sizeof(T).
    __aicore__ inline void BuildOffsets()
    {
        AscendC::LocalTensor<int32_t> offsets = offsetBuf.Get<int32_t>();
        uint32_t edge = t.tileSize;
        AscendC::CreateVecIndex(offsets, 0, edge);
        AscendC::Muls(offsets, offsets, static_cast<int32_t>(edge * sizeof(T)), edge);
        // expert: the table by doubling. Columns [k, 2k) are columns [0, k) shifted by
        // k elements, so log2(T) vector Adds build it instead of one Adds per column
        // (T - 1 instructions, each with its own scalar loop step and issue).
        for (uint32_t k = 1; k < edge; k *= 2) {
            uint32_t n = edge - k < k ? edge - k : k;
            AscendC::Adds(offsets[k * edge], offsets, static_cast<int32_t>(k * sizeof(T)), n * edge);
        }
    }
    // Gap, in 32 B blocks, between rows of `len` elements laid out at a pitch of T.
    __aicore__ inline uint32_t UbGap(uint32_t len) const
    {
        return (t.tileSize * sizeof(T) - (len * sizeof(T) + 31) / 32 * 32) / 32;
    }
    __aicore__ inline void CopyIn(uint64_t offset, uint32_t tr, uint32_t tc)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(tr), static_cast<uint32_t>(tc * sizeof(T)),
                                              static_cast<uint32_t>((t.cols - tc) * sizeof(T)), UbGap(tc), 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        AscendC::LocalTensor<uint32_t> offsets = offsetBuf.Get<uint32_t>();
        AscendC::Gather(yLocal, xLocal, offsets, 0, t.tileSize * t.tileSize);
        outQueueY.EnQue<T>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint64_t offset, uint32_t tr, uint32_t tc)
    {
        AscendC::LocalTensor<T> yLocal = outQueueY.DeQue<T>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(tc), static_cast<uint32_t>(tr * sizeof(T)),
                                              UbGap(tr), static_cast<uint32_t>((t.rows - tr) * sizeof(T)), 0};
        AscendC::DataCopyPad(yGm[offset], yLocal, copyParams);
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> offsetBuf;
    AscendC::GlobalTensor<T> xGm, yGm;
    TilingT t;
    uint32_t tileCount = 0;
    uint32_t firstTile = 0;
};

extern "C" __global__ __aicore__ void transpose_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelTranspose<DTYPE_X, decltype(tilingData)> op;
    op.Init(x, y, tilingData);
    op.Process();
}
