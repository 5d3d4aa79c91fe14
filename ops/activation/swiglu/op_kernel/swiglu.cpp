// Kernel of SwigluCustom: x = [a, b] split in halves along the last dimension,
// y = silu(a) * b = a * b / (1 + exp(-a)), y's last dimension is half of x's.
// Rows are split across cores (the first cores take one row more). A tile holds several
// whole rows when a row fits (each row padded to 32 B in UB, so strided DataCopyPad reads
// a and b of many rows at once), else one row is cut into column chunks.
// 16-bit inputs are computed in float and rounded back.
#include <type_traits>
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelSwiglu {
public:
    __aicore__ inline KernelSwiglu() {}
    template <typename Tiling>  // the struct GET_TILING_DATA declares
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const Tiling& t)
    {
        uint32_t blockIdx = AscendC::GetBlockIdx();
        if (blockIdx < t.formerNum) {
            this->rowCount = t.rowsPerCore + 1;
            this->rowStart = blockIdx * this->rowCount;
        } else {
            this->rowCount = t.rowsPerCore;
            this->rowStart = t.formerNum * (t.rowsPerCore + 1) + (blockIdx - t.formerNum) * t.rowsPerCore;
        }
        this->halfLen = t.halfLen;
        this->tileLength = t.tileLength;
        this->rowsPerTile = t.rowsPerTile;
        xGm.SetGlobalBuffer((__gm__ T*)x + static_cast<uint64_t>(this->rowStart) * 2 * t.halfLen,
                            static_cast<uint64_t>(this->rowCount) * 2 * t.halfLen);
        yGm.SetGlobalBuffer((__gm__ T*)y + static_cast<uint64_t>(this->rowStart) * t.halfLen,
                            static_cast<uint64_t>(this->rowCount) * t.halfLen);
        pipe.InitBuffer(inQueueA, BUFFER_NUM, this->tileLength * sizeof(T));
        pipe.InitBuffer(inQueueB, BUFFER_NUM, this->tileLength * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, this->tileLength * sizeof(T));
        constexpr uint32_t floatTiles = 1 + (std::is_same_v<T, float> ? 0 : 3);
        pipe.InitBuffer(calcBuf, floatTiles * this->tileLength * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        if (this->rowsPerTile > 0) {
            for (uint32_t r = 0; r < this->rowCount; r += this->rowsPerTile) {
                uint32_t rows = this->rowCount - r < this->rowsPerTile ? this->rowCount - r : this->rowsPerTile;
                RunTile(r, rows, 0, this->halfLen);
            }
            return;
        }
        for (uint32_t r = 0; r < this->rowCount; r++) {
            for (uint32_t c = 0; c < this->halfLen; c += this->tileLength) {
                uint32_t cols = this->halfLen - c < this->tileLength ? this->halfLen - c : this->tileLength;
                RunTile(r, 1, c, cols);
            }
        }
    }

private:
    __aicore__ inline void RunTile(uint32_t row, uint32_t rows, uint32_t col, uint32_t cols)
    {
        CopyIn(row, rows, col, cols);
        Compute(rows * PaddedCols(cols));
        CopyOut(row, rows, col, cols);
    }
    __aicore__ inline uint32_t PaddedCols(uint32_t cols) const
    {
        constexpr uint32_t alignNum = 32 / sizeof(T);
        return (cols + alignNum - 1) / alignNum * alignNum;
    }
    __aicore__ inline void CopyIn(uint32_t row, uint32_t rows, uint32_t col, uint32_t cols)
    {
        AscendC::LocalTensor<T> aLocal = inQueueA.AllocTensor<T>();
        AscendC::LocalTensor<T> bLocal = inQueueB.AllocTensor<T>();
        // One block per row; the gap skips the other half of x and the columns outside the chunk.
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)),
                                              static_cast<uint32_t>((2 * this->halfLen - cols) * sizeof(T)), 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        uint64_t aOffset = static_cast<uint64_t>(row) * 2 * this->halfLen + col;
        AscendC::DataCopyPad(aLocal, xGm[aOffset], copyParams, padParams);
        AscendC::DataCopyPad(bLocal, xGm[aOffset + this->halfLen], copyParams, padParams);
        inQueueA.EnQue(aLocal);
        inQueueB.EnQue(bLocal);
    }
    __aicore__ inline void Compute(uint32_t count)
    {
        AscendC::LocalTensor<T> aLocal = inQueueA.DeQue<T>();
        AscendC::LocalTensor<T> bLocal = inQueueB.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        AscendC::LocalTensor<float> af;
        AscendC::LocalTensor<float> bf;
        AscendC::LocalTensor<float> yf;
        AscendC::LocalTensor<float> work = calcBuf.Get<float>();
        if constexpr (std::is_same_v<T, float>) {
            af = aLocal;
            bf = bLocal;
            yf = yLocal;
        } else {
            af = work[this->tileLength];
            bf = work[2 * this->tileLength];
            yf = work[3 * this->tileLength];
            AscendC::Cast(af, aLocal, AscendC::RoundMode::CAST_NONE, count);
            AscendC::Cast(bf, bLocal, AscendC::RoundMode::CAST_NONE, count);
        }
        // Padding lanes of each row are computed too and never copied out.
        AscendC::Muls(work, af, -1.0f, count);
        AscendC::Exp(work, work, count);
        AscendC::Adds(work, work, 1.0f, count);
        AscendC::Div(yf, af, work, count);
        AscendC::Mul(yf, yf, bf, count);
        if constexpr (!std::is_same_v<T, float>) {
            AscendC::Cast(yLocal, yf, AscendC::RoundMode::CAST_RINT, count);
        }
        outQueueY.EnQue<T>(yLocal);
        inQueueA.FreeTensor(aLocal);
        inQueueB.FreeTensor(bLocal);
    }
    __aicore__ inline void CopyOut(uint32_t row, uint32_t rows, uint32_t col, uint32_t cols)
    {
        AscendC::LocalTensor<T> yLocal = outQueueY.DeQue<T>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)), 0,
                                              static_cast<uint32_t>((this->halfLen - cols) * sizeof(T)), 0};
        AscendC::DataCopyPad(yGm[static_cast<uint64_t>(row) * this->halfLen + col], yLocal, copyParams);
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueA, inQueueB;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> calcBuf;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> yGm;
    uint32_t rowStart = 0;
    uint32_t rowCount = 0;
    uint32_t halfLen = 0;
    uint32_t tileLength = 0;
    uint32_t rowsPerTile = 0;
};

extern "C" __global__ __aicore__ void swiglu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelSwiglu<DTYPE_X> op;
    op.Init(x, y, tilingData);
    op.Process();
}
