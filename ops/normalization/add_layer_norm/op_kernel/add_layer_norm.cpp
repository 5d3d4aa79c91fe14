// Kernel of AddLayerNormCustom: x = x1 + x2 and y = LayerNorm(x) * gamma + beta over the last
// axis. gamma and beta are loaded once per core (kept in float). Each core owns a contiguous
// range of rows; a tile holds several rows on a 32 B pitch (DataCopy when rows are whole
// blocks, DataCopyPad otherwise). The sum is formed in float over the whole tile and written
// out as x; each row then gets its mean (ReduceSum), is centred in place, gets its variance
// (ReduceSum of squares) and is scaled, multiplied by gamma and shifted by beta. Queues are
// double-buffered.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelAddLayerNorm {
    static constexpr bool COMPUTE_IN_FLOAT = !std::is_same_v<T, float>;

public:
    __aicore__ inline KernelAddLayerNorm() {}
    template <typename Tiling>
    __aicore__ inline void Init(GM_ADDR x1, GM_ADDR x2, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR x,
                                const Tiling& tiling)
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
        pitch = tiling.pitch;
        rowsPerTile = tiling.rowsPerTile;
        epsilon = tiling.epsilon;
        avgFactor = tiling.avgFactor;
        aligned = (cols * sizeof(T)) % 32 == 0;
        uint32_t tileBytes = rowsPerTile * pitch * sizeof(T);

        x1Gm.SetGlobalBuffer((__gm__ T*)x1);
        x2Gm.SetGlobalBuffer((__gm__ T*)x2);
        gammaGm.SetGlobalBuffer((__gm__ T*)gamma, cols);
        betaGm.SetGlobalBuffer((__gm__ T*)beta, cols);
        yGm.SetGlobalBuffer((__gm__ T*)y);
        xGm.SetGlobalBuffer((__gm__ T*)x);
        pipe.InitBuffer(inQueue, tiling.bufferNum, 2 * tileBytes);   // [x1 tile | x2 tile]
        pipe.InitBuffer(outQueue, tiling.bufferNum, 2 * tileBytes);  // [y tile | x tile]
        pipe.InitBuffer(paramQueue, 1, 2 * pitch * sizeof(T));
        if constexpr (COMPUTE_IN_FLOAT) {
            pipe.InitBuffer(paramFloatBuf, 2 * pitch * sizeof(float));
            pipe.InitBuffer(floatBuf, 2 * rowsPerTile * pitch * sizeof(float));
        }
        pipe.InitBuffer(squareBuf, pitch * sizeof(float));
        pipe.InitBuffer(workBuf, (pitch / 64 + 1) * sizeof(float) + 32);
        pipe.InitBuffer(resultBuf, 32);
    }
    __aicore__ inline void Process()
    {
        if (blockRows == 0) {
            return;
        }
        LoadParams();
        for (uint32_t done = 0; done < blockRows; done += rowsPerTile) {
            uint32_t rows = blockRows - done < rowsPerTile ? blockRows - done : rowsPerTile;
            CopyIn(rowStart + done, rows);
            Compute(rows);
            CopyOut(rowStart + done, rows);
        }
        paramQueue.FreeTensor(paramRaw);
    }

private:
    __aicore__ inline void LoadParams()
    {
        AscendC::LocalTensor<T> p = paramQueue.AllocTensor<T>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(p, gammaGm, copyParams, padParams);
        AscendC::DataCopyPad(p[pitch], betaGm, copyParams, padParams);
        paramQueue.EnQue(p);
        paramRaw = paramQueue.DeQue<T>();
        if constexpr (COMPUTE_IN_FLOAT) {
            params = paramFloatBuf.Get<float>();
            AscendC::Cast(params, paramRaw, AscendC::RoundMode::CAST_NONE, 2 * pitch);
        } else {
            params = paramRaw;
        }
    }
    __aicore__ inline void LoadRows(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                                    uint32_t rows)
    {
        if (aligned) {
            AscendC::DataCopy(dst, src, rows * cols);
        } else {
            AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)),
                                                  0, 0, 0};
            AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
            AscendC::DataCopyPad(dst, src, copyParams, padParams);
        }
    }
    __aicore__ inline void StoreRows(const AscendC::GlobalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                                     uint32_t rows)
    {
        if (aligned) {
            AscendC::DataCopy(dst, src, rows * cols);
        } else {
            AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)),
                                                  0, 0, 0};
            AscendC::DataCopyPad(dst, src, copyParams);
        }
    }
    __aicore__ inline void CopyIn(uint64_t row, uint32_t rows)
    {
        AscendC::LocalTensor<T> in = inQueue.AllocTensor<T>();
        LoadRows(in, x1Gm[row * cols], rows);
        LoadRows(in[rowsPerTile * pitch], x2Gm[row * cols], rows);
        inQueue.EnQue(in);
    }
    // dst = (src - mean) * rstd * gamma + beta for one float row; dst may be src.
    __aicore__ inline void NormaliseRow(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<float>& src)
    {
        AscendC::LocalTensor<float> square = squareBuf.Get<float>();
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::LocalTensor<float> res = resultBuf.Get<float>();
        AscendC::ReduceSum(res, src, work, cols);
        WaitVectorForScalar();
        float mean = res.GetValue(0) * avgFactor;
        AscendC::Adds(dst, src, -mean, cols);
        AscendC::Mul(square, dst, dst, cols);
        AscendC::ReduceSum(res, square, work, cols);
        AscendC::Muls(res, res, avgFactor, 1);
        AscendC::Adds(res, res, epsilon, 1);
        AscendC::Rsqrt(res, res, 1);
        WaitVectorForScalar();
        float rstd = res.GetValue(0);
        AscendC::Muls(dst, dst, rstd, cols);
        AscendC::Mul(dst, dst, params, cols);
        AscendC::Add(dst, dst, params[pitch], cols);
    }
    __aicore__ inline void Compute(uint32_t rows)
    {
        AscendC::LocalTensor<T> in = inQueue.DeQue<T>();
        AscendC::LocalTensor<T> out = outQueue.AllocTensor<T>();
        uint32_t tile = rowsPerTile * pitch;
        uint32_t count = (rows - 1) * pitch + cols;
        AscendC::LocalTensor<T> yLocal = out;
        AscendC::LocalTensor<T> xLocal = out[tile];
        if constexpr (COMPUTE_IN_FLOAT) {
            AscendC::LocalTensor<float> f = floatBuf.Get<float>();
            AscendC::Cast(f, in, AscendC::RoundMode::CAST_NONE, count);
            AscendC::Cast(f[tile], in[tile], AscendC::RoundMode::CAST_NONE, count);
            AscendC::Add(f, f, f[tile], count);
            AscendC::Cast(xLocal, f, AscendC::RoundMode::CAST_RINT, count);
            for (uint32_t r = 0; r < rows; r++) {
                NormaliseRow(f[r * pitch], f[r * pitch]);
            }
            AscendC::Cast(yLocal, f, AscendC::RoundMode::CAST_RINT, count);
        } else {
            AscendC::Add(xLocal, in, in[tile], count);
            for (uint32_t r = 0; r < rows; r++) {
                NormaliseRow(yLocal[r * pitch], xLocal[r * pitch]);
            }
        }
        outQueue.EnQue<T>(out);
        inQueue.FreeTensor(in);
    }
    __aicore__ inline void CopyOut(uint64_t row, uint32_t rows)
    {
        AscendC::LocalTensor<T> out = outQueue.DeQue<T>();
        StoreRows(yGm[row * cols], out, rows);
        StoreRows(xGm[row * cols], out[rowsPerTile * pitch], rows);
        outQueue.FreeTensor(out);
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
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> paramQueue;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> paramFloatBuf, floatBuf, squareBuf, workBuf, resultBuf;
    AscendC::LocalTensor<T> paramRaw;
    AscendC::LocalTensor<float> params;  // [gamma | beta] in float, each on the row pitch
    AscendC::GlobalTensor<T> x1Gm, x2Gm, gammaGm, betaGm, yGm, xGm;
    uint64_t rowStart = 0;
    uint32_t blockRows = 0;
    uint32_t cols = 0;
    uint32_t pitch = 0;
    uint32_t rowsPerTile = 0;
    float epsilon = 0.0f;
    float avgFactor = 0.0f;
    bool aligned = false;
};

extern "C" __global__ __aicore__ void add_layer_norm_custom(GM_ADDR x1, GM_ADDR x2, GM_ADDR gamma, GM_ADDR beta,
                                                            GM_ADDR y, GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelAddLayerNorm<DTYPE_X1> op;
    op.Init(x1, x2, gamma, beta, y, x, tilingData);
    op.Process();
}
