// Kernel of RmsNormCustom over the last axis. gamma is loaded once per core and kept
// in float; rows stream through UB in tiles with double buffering, each row padded to
// a 32 B pitch (DataCopyPad) so any last dimension works. The statistic and the
// scaling are computed in float for every dtype.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelRmsNorm {
public:
    __aicore__ inline KernelRmsNorm() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, uint32_t cols, uint32_t colsAligned,
                                uint32_t formerNum, uint32_t formerRows, uint32_t tailRows, uint32_t rowsPerTile,
                                float epsilon, float avgFactor)
    {
        uint32_t blockIdx = AscendC::GetBlockIdx();
        uint64_t rowOffset = 0;
        if (blockIdx < formerNum) {
            this->blockRows = formerRows;
            rowOffset = static_cast<uint64_t>(formerRows) * blockIdx;
        } else {
            this->blockRows = tailRows;
            rowOffset = static_cast<uint64_t>(formerRows) * formerNum +
                        static_cast<uint64_t>(tailRows) * (blockIdx - formerNum);
        }
        this->cols = cols;
        this->colsAligned = colsAligned;
        this->rowsPerTile = rowsPerTile;
        this->tileNum = (this->blockRows + rowsPerTile - 1) / rowsPerTile;
        this->epsilon = epsilon;
        this->avgFactor = avgFactor;

        xGm.SetGlobalBuffer((__gm__ T*)x + rowOffset * cols, static_cast<uint64_t>(this->blockRows) * cols);
        yGm.SetGlobalBuffer((__gm__ T*)y + rowOffset * cols, static_cast<uint64_t>(this->blockRows) * cols);
        gammaGm.SetGlobalBuffer((__gm__ T*)gamma, cols);

        pipe.InitBuffer(inQueueX, BUFFER_NUM, rowsPerTile * colsAligned * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, rowsPerTile * colsAligned * sizeof(T));
        pipe.InitBuffer(inQueueGamma, 1, colsAligned * sizeof(T));
        pipe.InitBuffer(gammaFloatBuf, colsAligned * sizeof(float));
        if constexpr (!std::is_same_v<T, float>) {
            pipe.InitBuffer(calcBuf, colsAligned * sizeof(float));
        }
        pipe.InitBuffer(squareBuf, colsAligned * sizeof(float));
        pipe.InitBuffer(workBuf, colsAligned * sizeof(float));
        pipe.InitBuffer(reduceBuf, 32);
    }
    __aicore__ inline void Process()
    {
        LoadGamma();
        for (uint32_t i = 0; i < this->tileNum; i++) {
            uint32_t rows = (i == this->tileNum - 1) ? this->blockRows - i * this->rowsPerTile : this->rowsPerTile;
            CopyIn(i, rows);
            Compute(rows);
            CopyOut(i, rows);
        }
    }

private:
    __aicore__ inline void LoadGamma()
    {
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(this->cols * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::LocalTensor<T> g = inQueueGamma.AllocTensor<T>();
        AscendC::DataCopyPad(g, gammaGm, copyParams, padParams);
        inQueueGamma.EnQue(g);
        g = inQueueGamma.DeQue<T>();
        AscendC::LocalTensor<float> gammaFloat = gammaFloatBuf.Get<float>();
        if constexpr (std::is_same_v<T, float>) {
            AscendC::Adds(gammaFloat, g, 0.0f, this->cols);
        } else {
            AscendC::Cast(gammaFloat, g, AscendC::RoundMode::CAST_NONE, this->cols);
        }
        inQueueGamma.FreeTensor(g);
    }
    __aicore__ inline void CopyIn(uint32_t progress, uint32_t rows)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows),
                                              static_cast<uint32_t>(this->cols * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(xLocal, xGm[static_cast<uint64_t>(progress) * this->rowsPerTile * this->cols], copyParams,
                             padParams);
        inQueueX.EnQue(xLocal);
    }
    // dst = src * rsqrt(mean(src^2) + eps) * gamma for one float row; dst may be src.
    __aicore__ inline void RmsNormRow(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<float>& src)
    {
        AscendC::LocalTensor<float> square = squareBuf.Get<float>();
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::LocalTensor<float> result = reduceBuf.Get<float>();
        AscendC::LocalTensor<float> gammaFloat = gammaFloatBuf.Get<float>();
        AscendC::Mul(square, src, src, this->cols);
        AscendC::ReduceSum(result, square, work, this->cols);
        AscendC::Muls(result, result, this->avgFactor, 1);
        AscendC::Adds(result, result, this->epsilon, 1);
        AscendC::Rsqrt(result, result, 1);
        WaitVectorForScalar();
        float rstd = result.GetValue(0);
        AscendC::Muls(dst, src, rstd, this->cols);
        AscendC::Mul(dst, dst, gammaFloat, this->cols);
    }
    __aicore__ inline void Compute(uint32_t rows)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        for (uint32_t r = 0; r < rows; r++) {
            uint32_t offset = r * this->colsAligned;
            if constexpr (std::is_same_v<T, float>) {
                RmsNormRow(yLocal[offset], xLocal[offset]);
            } else {
                AscendC::LocalTensor<float> calc = calcBuf.Get<float>();
                AscendC::Cast(calc, xLocal[offset], AscendC::RoundMode::CAST_NONE, this->cols);
                RmsNormRow(calc, calc);
                AscendC::Cast(yLocal[offset], calc, AscendC::RoundMode::CAST_RINT, this->cols);
            }
        }
        outQueueY.EnQue<T>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t progress, uint32_t rows)
    {
        AscendC::LocalTensor<T> yLocal = outQueueY.DeQue<T>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows),
                                              static_cast<uint32_t>(this->cols * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[static_cast<uint64_t>(progress) * this->rowsPerTile * this->cols], yLocal, copyParams);
        outQueueY.FreeTensor(yLocal);
    }

    // The scalar unit reads vector results only after the vector pipe has written them.
    __aicore__ inline void WaitVectorForScalar()
    {
        event_t eventId = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(eventId);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(eventId);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueGamma;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> gammaFloatBuf, calcBuf, squareBuf, workBuf, reduceBuf;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> gammaGm;
    AscendC::GlobalTensor<T> yGm;
    uint32_t blockRows = 0;
    uint32_t cols = 0;
    uint32_t colsAligned = 0;
    uint32_t rowsPerTile = 0;
    uint32_t tileNum = 0;
    float epsilon = 0.0f;
    float avgFactor = 0.0f;
};

extern "C" __global__ __aicore__ void rms_norm_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR workspace,
                                                      GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelRmsNorm<DTYPE_X> op;
    op.Init(x, gamma, y, tilingData.cols, tilingData.colsAligned, tilingData.formerNum, tilingData.formerRows,
            tilingData.tailRows, tilingData.rowsPerTile, tilingData.epsilon, tilingData.avgFactor);
    op.Process();
}
