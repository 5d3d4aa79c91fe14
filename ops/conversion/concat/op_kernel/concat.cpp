// Kernel of ConcatCustom: y[r, :Ca] = a[r, :], y[r, Ca:] = b[r, :]. Each core owns a
// contiguous range of rows and copies its rows of a, then of b, through UB: a tile holds
// as many whole rows as fit (each on a 32 B pitch, one DataCopyPad in and one out with the
// other input's width as the GM-side gap), or a column chunk of one row when rows are
// longer than a tile. The GM->UB->GM queue is double-buffered, so the copy in of one tile
// overlaps the copy out of the previous one.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_BLOCK_COUNT = 4095;  // rows per DataCopyPad

template <typename T>
class KernelConcat {
public:
    __aicore__ inline KernelConcat() {}
    template <typename Tiling>
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR y, const Tiling& tiling)
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
        colsA = tiling.colsA;
        colsB = tiling.colsB;
        tileElems = tiling.tileElems;
        aGm.SetGlobalBuffer((__gm__ T*)a);
        bGm.SetGlobalBuffer((__gm__ T*)b);
        yGm.SetGlobalBuffer((__gm__ T*)y);
        pipe.InitBuffer(queue, tiling.bufferNum, tileElems * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        if (blockRows == 0) {
            return;
        }
        CopyPart(aGm, colsA, 0);
        CopyPart(bGm, colsB, colsA);
    }

private:
    // This core's rows of src [rows, cols] into columns [dstCol, dstCol + cols) of y.
    __aicore__ inline void CopyPart(const AscendC::GlobalTensor<T>& src, uint32_t cols, uint32_t dstCol)
    {
        constexpr uint32_t alignNum = 32 / sizeof(T);
        uint32_t pitch = (cols + alignNum - 1) / alignNum * alignNum;
        uint32_t rowsPerTile = 1;
        uint32_t chunk = cols;
        if (pitch <= tileElems) {
            rowsPerTile = tileElems / pitch;
            rowsPerTile = rowsPerTile < MAX_BLOCK_COUNT ? rowsPerTile : MAX_BLOCK_COUNT;
        } else {
            chunk = tileElems;
        }
        uint64_t yCols = static_cast<uint64_t>(colsA) + colsB;
        for (uint32_t done = 0; done < blockRows; done += rowsPerTile) {
            uint32_t rows = blockRows - done < rowsPerTile ? blockRows - done : rowsPerTile;
            uint64_t row = rowStart + done;
            for (uint32_t col = 0; col < cols; col += chunk) {
                uint32_t len = cols - col < chunk ? cols - col : chunk;
                CopyIn(src[row * cols + col], rows, len, cols - len);
                CopyOut(yGm[row * yCols + dstCol + col], rows, len, static_cast<uint32_t>(yCols - len));
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
    AscendC::GlobalTensor<T> aGm, bGm, yGm;
    uint64_t rowStart = 0;
    uint32_t blockRows = 0;
    uint32_t colsA = 0;
    uint32_t colsB = 0;
    uint32_t tileElems = 0;
};

extern "C" __global__ __aicore__ void concat_custom(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelConcat<DTYPE_A> op;
    op.Init(a, b, y, tilingData);
    op.Process();
}
