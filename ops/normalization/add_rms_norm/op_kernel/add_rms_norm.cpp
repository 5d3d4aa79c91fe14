// Kernel of AddRmsNormCustom: x = x1 + x2 (the residual sum, an output too) and
// y = x / sqrt(mean(x^2) + eps) * gamma over the last axis. gamma is loaded once per core
// and kept in float; rows of x1 and x2 stream through UB in tiles with double buffering,
// each row padded to a 32 B pitch (DataCopyPad) so any last dimension works. The sum, the
// statistic and the scaling are computed in float for every dtype; y is normalised from
// the float sum, x is that sum rounded to the dtype.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelAddRmsNorm {
    static constexpr bool IS_FLOAT = std::is_same_v<T, float>;

public:
    __aicore__ inline KernelAddRmsNorm() {}
    template <typename Tiling>
    __aicore__ inline void Init(GM_ADDR x1, GM_ADDR x2, GM_ADDR gamma, GM_ADDR y, GM_ADDR x, const Tiling& t)
    {
        uint32_t blockIdx = AscendC::GetBlockIdx();
        uint64_t rowOffset = 0;
        if (blockIdx < t.formerNum) {
            blockRows = t.formerRows;
            rowOffset = static_cast<uint64_t>(t.formerRows) * blockIdx;
        } else {
            blockRows = t.tailRows;
            rowOffset = static_cast<uint64_t>(t.formerRows) * t.formerNum +
                        static_cast<uint64_t>(t.tailRows) * (blockIdx - t.formerNum);
        }
        cols = t.cols;
        colsAligned = t.colsAligned;
        rowsPerTile = t.rowsPerTile;
        tileNum = (blockRows + rowsPerTile - 1) / rowsPerTile;
        epsilon = t.epsilon;
        avgFactor = t.avgFactor;

        uint64_t offset = rowOffset * cols;
        uint64_t length = static_cast<uint64_t>(blockRows) * cols;
        x1Gm.SetGlobalBuffer((__gm__ T*)x1 + offset, length);
        x2Gm.SetGlobalBuffer((__gm__ T*)x2 + offset, length);
        yGm.SetGlobalBuffer((__gm__ T*)y + offset, length);
        xGm.SetGlobalBuffer((__gm__ T*)x + offset, length);
        gammaGm.SetGlobalBuffer((__gm__ T*)gamma, cols);

        uint32_t tileBytes = rowsPerTile * colsAligned * sizeof(T);
        pipe.InitBuffer(inQueueX1, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(inQueueX2, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(outQueueX, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(inQueueGamma, 1, colsAligned * sizeof(T));
        pipe.InitBuffer(gammaFloatBuf, colsAligned * sizeof(float));
        if constexpr (!IS_FLOAT) {
            pipe.InitBuffer(calcBuf, 2 * colsAligned * sizeof(float));
        }
        pipe.InitBuffer(squareBuf, colsAligned * sizeof(float));
        pipe.InitBuffer(workBuf, colsAligned * sizeof(float));
        pipe.InitBuffer(reduceBuf, 32);
    }
    __aicore__ inline void Process()
    {
        LoadGamma();
        for (uint32_t i = 0; i < tileNum; i++) {
            uint32_t rows = i == tileNum - 1 ? blockRows - i * rowsPerTile : rowsPerTile;
            CopyIn(i, rows);
            Compute(rows);
            CopyOut(i, rows);
        }
    }

private:
    __aicore__ inline void LoadGamma()
    {
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::LocalTensor<T> g = inQueueGamma.AllocTensor<T>();
        AscendC::DataCopyPad(g, gammaGm, copyParams, padParams);
        inQueueGamma.EnQue(g);
        g = inQueueGamma.DeQue<T>();
        AscendC::LocalTensor<float> gammaFloat = gammaFloatBuf.Get<float>();
        if constexpr (IS_FLOAT) {
            AscendC::Adds(gammaFloat, g, 0.0f, cols);
        } else {
            AscendC::Cast(gammaFloat, g, AscendC::RoundMode::CAST_NONE, cols);
        }
        inQueueGamma.FreeTensor(g);
    }
    __aicore__ inline AscendC::DataCopyExtParams RowsParams(uint32_t rows) const
    {
        return AscendC::DataCopyExtParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)), 0, 0,
                                          0};
    }
    __aicore__ inline void CopyIn(uint32_t progress, uint32_t rows)
    {
        uint64_t offset = static_cast<uint64_t>(progress) * rowsPerTile * cols;
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::LocalTensor<T> x1Local = inQueueX1.AllocTensor<T>();
        AscendC::LocalTensor<T> x2Local = inQueueX2.AllocTensor<T>();
        AscendC::DataCopyPad(x1Local, x1Gm[offset], RowsParams(rows), padParams);
        AscendC::DataCopyPad(x2Local, x2Gm[offset], RowsParams(rows), padParams);
        inQueueX1.EnQue(x1Local);
        inQueueX2.EnQue(x2Local);
    }
    // dst = src * rsqrt(mean(src^2) + eps) * gamma for one float row; dst may be src.
    __aicore__ inline void RmsNormRow(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<float>& src)
    {
        AscendC::LocalTensor<float> square = squareBuf.Get<float>();
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::LocalTensor<float> result = reduceBuf.Get<float>();
        AscendC::LocalTensor<float> gammaFloat = gammaFloatBuf.Get<float>();
        AscendC::Mul(square, src, src, cols);
        AscendC::ReduceSum(result, square, work, cols);
        AscendC::Muls(result, result, avgFactor, 1);
        AscendC::Adds(result, result, epsilon, 1);
        AscendC::Rsqrt(result, result, 1);
        WaitVectorForScalar();
        float rstd = result.GetValue(0);
        AscendC::Muls(dst, src, rstd, cols);
        AscendC::Mul(dst, dst, gammaFloat, cols);
    }
    __aicore__ inline void Compute(uint32_t rows)
    {
        AscendC::LocalTensor<T> x1Local = inQueueX1.DeQue<T>();
        AscendC::LocalTensor<T> x2Local = inQueueX2.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        AscendC::LocalTensor<T> xLocal = outQueueX.AllocTensor<T>();
        for (uint32_t r = 0; r < rows; r++) {
            uint32_t offset = r * colsAligned;
            if constexpr (IS_FLOAT) {
                AscendC::Add(xLocal[offset], x1Local[offset], x2Local[offset], cols);
                RmsNormRow(yLocal[offset], xLocal[offset]);
            } else {
                AscendC::LocalTensor<float> sum = calcBuf.Get<float>();
                AscendC::LocalTensor<float> other = sum[colsAligned];
                AscendC::Cast(sum, x1Local[offset], AscendC::RoundMode::CAST_NONE, cols);
                AscendC::Cast(other, x2Local[offset], AscendC::RoundMode::CAST_NONE, cols);
                AscendC::Add(sum, sum, other, cols);
                AscendC::Cast(xLocal[offset], sum, AscendC::RoundMode::CAST_RINT, cols);
                RmsNormRow(sum, sum);
                AscendC::Cast(yLocal[offset], sum, AscendC::RoundMode::CAST_RINT, cols);
            }
        }
        outQueueY.EnQue<T>(yLocal);
        outQueueX.EnQue<T>(xLocal);
        inQueueX1.FreeTensor(x1Local);
        inQueueX2.FreeTensor(x2Local);
    }
    __aicore__ inline void CopyOut(uint32_t progress, uint32_t rows)
    {
        uint64_t offset = static_cast<uint64_t>(progress) * rowsPerTile * cols;
        AscendC::LocalTensor<T> yLocal = outQueueY.DeQue<T>();
        AscendC::LocalTensor<T> xLocal = outQueueX.DeQue<T>();
        AscendC::DataCopyPad(yGm[offset], yLocal, RowsParams(rows));
        AscendC::DataCopyPad(xGm[offset], xLocal, RowsParams(rows));
        outQueueY.FreeTensor(yLocal);
        outQueueX.FreeTensor(xLocal);
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
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX1, inQueueX2;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY, outQueueX;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueGamma;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> gammaFloatBuf, calcBuf, squareBuf, workBuf, reduceBuf;
    AscendC::GlobalTensor<T> x1Gm, x2Gm, gammaGm, yGm, xGm;
    uint32_t blockRows = 0;
    uint32_t cols = 0;
    uint32_t colsAligned = 0;
    uint32_t rowsPerTile = 0;
    uint32_t tileNum = 0;
    float epsilon = 0.0f;
    float avgFactor = 0.0f;
};

extern "C" __global__ __aicore__ void add_rms_norm_custom(GM_ADDR x1, GM_ADDR x2, GM_ADDR gamma, GM_ADDR y, GM_ADDR x,
                                                          GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelAddRmsNorm<DTYPE_X1> op;
    op.Init(x1, x2, gamma, y, x, tilingData);
    op.Process();
}
