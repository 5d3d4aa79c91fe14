// Kernel of QuantizePerChannelCustom: y = saturate_int8(rint(x * scale[c] + offset[c])).
// scale and offset are loaded once per core and kept in UB. Each core owns a contiguous
// range of rows; a tile holds several rows on a common 32-element pitch (DataCopyPad with
// a UB-side gap for 16/32-bit input rows, so int8 output rows line up), the channel
// parameters are applied per row (Mul, Add), and the rounding, saturation and narrowing
// (float -> float rint, Maxs/Mins, float -> half -> int8, both exact) run once over the
// whole tile. Queues are double-buffered.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelQuantizePerChannel {
    static constexpr bool COMPUTE_IN_FLOAT = !std::is_same_v<T, float>;

public:
    __aicore__ inline KernelQuantizePerChannel() {}
    template <typename Tiling>
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR scale, GM_ADDR offset, GM_ADDR y, const Tiling& tiling)
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
        xGm.SetGlobalBuffer((__gm__ T*)x);
        yGm.SetGlobalBuffer((__gm__ int8_t*)y);
        scaleGm.SetGlobalBuffer((__gm__ float*)scale, cols);
        offsetGm.SetGlobalBuffer((__gm__ float*)offset, cols);
        pipe.InitBuffer(inQueue, tiling.bufferNum, rowsPerTile * pitch * sizeof(T));
        pipe.InitBuffer(outQueue, tiling.bufferNum, rowsPerTile * pitch * sizeof(int8_t));
        pipe.InitBuffer(paramQueue, 1, 2 * pitch * sizeof(float));
        if constexpr (COMPUTE_IN_FLOAT) {
            pipe.InitBuffer(floatBuf, rowsPerTile * pitch * sizeof(float));
        } else {
            pipe.InitBuffer(halfBuf, rowsPerTile * pitch * sizeof(half));
        }
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
        paramQueue.FreeTensor(params);
    }

private:
    __aicore__ inline void LoadParams()
    {
        AscendC::LocalTensor<float> p = paramQueue.AllocTensor<float>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(cols * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(p, scaleGm, copyParams, padParams);
        AscendC::DataCopyPad(p[pitch], offsetGm, copyParams, padParams);
        paramQueue.EnQue(p);
        params = paramQueue.DeQue<float>();
    }
    __aicore__ inline void CopyIn(uint64_t row, uint32_t rows)
    {
        AscendC::LocalTensor<T> in = inQueue.AllocTensor<T>();
        constexpr uint32_t alignNum = 32 / sizeof(T);
        uint32_t rowBlocks = (cols + alignNum - 1) / alignNum;
        uint32_t gapBlocks = pitch / alignNum - rowBlocks;  // rows start every `pitch` elements
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)), 0,
                                              gapBlocks, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(in, xGm[row * cols], copyParams, padParams);
        inQueue.EnQue(in);
    }
    __aicore__ inline void Compute(uint32_t rows)
    {
        AscendC::LocalTensor<T> in = inQueue.DeQue<T>();
        AscendC::LocalTensor<int8_t> out = outQueue.AllocTensor<int8_t>();
        uint32_t count = (rows - 1) * pitch + cols;
        AscendC::LocalTensor<float> f;
        if constexpr (COMPUTE_IN_FLOAT) {
            f = floatBuf.Get<float>();
            AscendC::Cast(f, in, AscendC::RoundMode::CAST_NONE, count);
        } else {
            f = in;
        }
        for (uint32_t r = 0; r < rows; r++) {
            AscendC::Mul(f[r * pitch], f[r * pitch], params, cols);
            AscendC::Add(f[r * pitch], f[r * pitch], params[pitch], cols);
        }
        AscendC::Cast(f, f, AscendC::RoundMode::CAST_RINT, count);  // ties to even, still float
        AscendC::Maxs(f, f, -128.0f, count);
        AscendC::Mins(f, f, 127.0f, count);
        // 16-bit inputs: the input tile is dead after the float copy and holds the half stage.
        AscendC::LocalTensor<half> h;
        if constexpr (COMPUTE_IN_FLOAT) {
            h = in.template ReinterpretCast<half>();
        } else {
            h = halfBuf.Get<half>();
        }
        AscendC::Cast(h, f, AscendC::RoundMode::CAST_NONE, count);    // integers in [-128, 127]: exact
        AscendC::Cast(out, h, AscendC::RoundMode::CAST_NONE, count);
        outQueue.EnQue<int8_t>(out);
        inQueue.FreeTensor(in);
    }
    __aicore__ inline void CopyOut(uint64_t row, uint32_t rows)
    {
        AscendC::LocalTensor<int8_t> out = outQueue.DeQue<int8_t>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), cols, 0, 0, 0};
        AscendC::DataCopyPad(yGm[row * cols], out, copyParams);
        outQueue.FreeTensor(out);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> paramQueue;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> halfBuf, floatBuf;
    AscendC::LocalTensor<float> params;  // [scale | offset], each on the row pitch
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<int8_t> yGm;
    AscendC::GlobalTensor<float> scaleGm, offsetGm;
    uint64_t rowStart = 0;
    uint32_t blockRows = 0;
    uint32_t cols = 0;
    uint32_t pitch = 0;
    uint32_t rowsPerTile = 0;
};

extern "C" __global__ __aicore__ void quantize_per_channel_custom(GM_ADDR x, GM_ADDR scale, GM_ADDR offset, GM_ADDR y,
                                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelQuantizePerChannel<DTYPE_X> op;
    op.Init(x, scale, offset, y, tilingData);
    op.Process();
}
