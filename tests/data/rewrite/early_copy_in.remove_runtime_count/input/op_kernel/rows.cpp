#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// The buffer count comes from the tiling (one when a tile is too long for two).
// Scales each row by its first element: Compute reads that element on the scalar unit, so
// the scalar unit waits for the vector unit once per tile.
template <typename T>
class KernelRows {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t cols, uint32_t rowsPerTile, uint32_t totalRows,
                                uint32_t bufferNum)
    {
        xGm.SetGlobalBuffer((__gm__ T*)x, cols * totalRows);
        yGm.SetGlobalBuffer((__gm__ T*)y, cols * totalRows);
        pipe.InitBuffer(inQueue, bufferNum, rowsPerTile * cols * sizeof(T));
        this->copyInAhead = bufferNum >= 2;
        pipe.InitBuffer(outQueue, bufferNum, rowsPerTile * cols * sizeof(T));
        this->cols = cols;
        this->rowsPerTile = rowsPerTile;
        this->totalRows = totalRows;
        this->tileNum = (totalRows + rowsPerTile - 1) / rowsPerTile;
    }
    __aicore__ inline void Process()
    {
        if (copyInAhead && 0 < this->tileNum) {
            uint32_t rows = ((0) == this->tileNum - 1) ? this->totalRows - (0) * this->rowsPerTile : this->rowsPerTile;
            CopyIn(0, rows);
        }
        for (uint32_t i = 0; i < this->tileNum; i++) {
            if (copyInAhead && i + 1 < this->tileNum) {
                uint32_t rows = ((i + 1) == this->tileNum - 1) ? this->totalRows - (i + 1) * this->rowsPerTile : this->rowsPerTile;
                CopyIn(i + 1, rows);
            }
            uint32_t rows = (i == this->tileNum - 1) ? this->totalRows - i * this->rowsPerTile : this->rowsPerTile;
            if (!copyInAhead) {
                CopyIn(i, rows);
            }
            Compute(rows);
            CopyOut(i, rows);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t progress, uint32_t rows)
    {
        AscendC::LocalTensor<T> x = inQueue.AllocTensor<T>();
        AscendC::DataCopy(x, xGm[progress * this->rowsPerTile * this->cols], rows * this->cols);
        inQueue.EnQue(x);
    }
    __aicore__ inline void Compute(uint32_t rows)
    {
        AscendC::LocalTensor<T> x = inQueue.DeQue<T>();
        AscendC::LocalTensor<T> y = outQueue.AllocTensor<T>();
        for (uint32_t r = 0; r < rows; r++) {
            T first = x.GetValue(r * this->cols);
            AscendC::Muls(y[r * this->cols], x[r * this->cols], first, this->cols);
        }
        outQueue.EnQue(y);
        inQueue.FreeTensor(x);
    }
    __aicore__ inline void CopyOut(uint32_t progress, uint32_t rows)
    {
        AscendC::LocalTensor<T> y = outQueue.DeQue<T>();
        AscendC::DataCopy(yGm[progress * this->rowsPerTile * this->cols], y, rows * this->cols);
        outQueue.FreeTensor(y);
    }

    AscendC::TPipe pipe;
    bool copyInAhead = false;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::GlobalTensor<T> xGm, yGm;
    uint32_t cols = 0;
    uint32_t rowsPerTile = 0;
    uint32_t totalRows = 0;
    uint32_t tileNum = 0;
};

extern "C" __global__ __aicore__ void rows(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelRows<float> op;
    op.Init(x, y, 64, 4, 10, 2);
    op.Process();
}
