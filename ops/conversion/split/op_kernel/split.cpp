// Kernel of SplitCustom: y0 = x[..., :S0], y1 = x[..., S0:S0+S1], y2 = x[..., S0+S1:]. Each core
// owns a contiguous range of rows and copies its rows of each part through UB: a tile holds as
// many rows of the part as fit (each on a 32 B pitch, one DataCopyPad in with the rest of x's
// row as the GM-side gap, one out into the part's contiguous rows), or a column chunk of one
// row when a part's rows are longer than a tile. The GM->UB->GM queue is double-buffered, so
// the copy in of one tile overlaps the copy out of the previous one.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_BLOCK_COUNT = 4095;  // rows per DataCopyPad

template <typename T>
class KernelSplit {
public:
    __aicore__ inline KernelSplit() {}
    template <typename Tiling>
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y0, GM_ADDR y1, GM_ADDR y2, const Tiling& tiling)
    {
        uint32_t blockIdx = AscendC::GetBlockIdx();
        if (blockIdx < tiling.formerNum) {
            blockRows = tiling.formerRows;
            rowStart = static_cast<uint64_t>(tiling.formerRows) * blockIdx;
        } else {
            blockRows = tiling.tailRows;
            rowStart = static_cast<uint64_t>(tiling.formerRows) * tiling.formerNum +
                       static_cast<uint64_t>(tiling.tailRows) * (blockIdx - tiling.formerNum);
        }
        cols = tiling.cols;
        width0 = tiling.width0;
        width1 = tiling.width1;
        width2 = tiling.width2;
        tileElems = tiling.tileElems;
        xGm.SetGlobalBuffer((__gm__ T*)x);
        y0Gm.SetGlobalBuffer((__gm__ T*)y0);
        y1Gm.SetGlobalBuffer((__gm__ T*)y1);
        y2Gm.SetGlobalBuffer((__gm__ T*)y2);
        pipe.InitBuffer(queue, tiling.bufferNum, tileElems * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        if (blockRows == 0) {
            return;
        }
        CopyPart(y0Gm, width0, 0);
        CopyPart(y1Gm, width1, width0);
        CopyPart(y2Gm, width2, width0 + width1);
    }

private:
    // Columns [srcCol, srcCol + width) of this core's rows of x into the rows of dst [rows, width].
    __aicore__ inline void CopyPart(const AscendC::GlobalTensor<T>& dst, uint32_t width, uint32_t srcCol)
    {
        constexpr uint32_t alignNum = 32 / sizeof(T);
        uint32_t pitch = (width + alignNum - 1) / alignNum * alignNum;
        uint32_t rowsPerTile = 1;
        uint32_t chunk = width;
        if (pitch <= tileElems) {
            rowsPerTile = tileElems / pitch;
            rowsPerTile = rowsPerTile < MAX_BLOCK_COUNT ? rowsPerTile : MAX_BLOCK_COUNT;
        } else {
            chunk = tileElems;
        }
        for (uint32_t done = 0; done < blockRows; done += rowsPerTile) {
            uint32_t rows = blockRows - done < rowsPerTile ? blockRows - done : rowsPerTile;
            uint64_t row = rowStart + done;
            for (uint32_t col = 0; col < width; col += chunk) {
                uint32_t len = width - col < chunk ? width - col : chunk;
                CopyIn(xGm[row * cols + srcCol + col], rows, len, cols - len);
                CopyOut(dst[row * width + col], rows, len, width - len);
            }
        }
    }
    __aicore__ inline void CopyIn(const AscendC::GlobalTensor<T>& src, uint32_t rows, uint32_t len, uint32_t srcGap)
    {
        AscendC::LocalTensor<T> t = queue.AllocTensor<T>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(len * sizeof(T)),
                                              static_cast<uint32_t>(srcGap * sizeof(T)), 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(t, src, copyParams, padParams);
        queue.EnQue(t);
    }
    __aicore__ inline void CopyOut(const AscendC::GlobalTensor<T>& dst, uint32_t rows, uint32_t len, uint32_t dstGap)
    {
        AscendC::LocalTensor<T> t = queue.DeQue<T>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(len * sizeof(T)), 0,
                                              static_cast<uint32_t>(dstGap * sizeof(T)), 0};
        AscendC::DataCopyPad(dst, t, copyParams);
        queue.FreeTensor(t);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQueBind<AscendC::QuePosition::VECIN, AscendC::QuePosition::VECOUT, BUFFER_NUM> queue;
    AscendC::GlobalTensor<T> xGm, y0Gm, y1Gm, y2Gm;
    uint64_t rowStart = 0;
    uint32_t blockRows = 0;
    uint32_t cols = 0;
    uint32_t width0 = 0;
    uint32_t width1 = 0;
    uint32_t width2 = 0;
    uint32_t tileElems = 0;
};

extern "C" __global__ __aicore__ void split_custom(GM_ADDR x, GM_ADDR y0, GM_ADDR y1, GM_ADDR y2, GM_ADDR workspace,
                                                   GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelSplit<DTYPE_X> op;
    op.Init(x, y0, y1, y2, tilingData);
    op.Process();
}
