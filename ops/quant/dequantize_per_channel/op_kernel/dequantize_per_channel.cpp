// Kernel of DequantizePerChannelCustom: y = (x + offset[c]) * scale[c] for int8 x. scale and
// offset are loaded once per core and kept in UB. Each core owns a contiguous range of
// rows; a tile holds several int8 rows on their natural 32-element pitch (one DataCopyPad),
// is widened once (int8 -> half -> float, both exact), gets the channel parameters per row
// (Add, Mul) and is narrowed once to the output type, whose rows keep the same pitch
// (DataCopyPad with a UB-side gap on the way out). Queues are double-buffered.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelDequantizePerChannel {
public:
    __aicore__ inline KernelDequantizePerChannel() {}
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
        xGm.SetGlobalBuffer((__gm__ int8_t*)x);
        yGm.SetGlobalBuffer((__gm__ T*)y);
        scaleGm.SetGlobalBuffer((__gm__ float*)scale, cols);
        offsetGm.SetGlobalBuffer((__gm__ float*)offset, cols);
        pipe.InitBuffer(inQueue, tiling.bufferNum, rowsPerTile * pitch * sizeof(int8_t));
        pipe.InitBuffer(outQueue, tiling.bufferNum, rowsPerTile * pitch * sizeof(T));
        pipe.InitBuffer(paramQueue, 1, 2 * pitch * sizeof(float));
        pipe.InitBuffer(halfBuf, rowsPerTile * pitch * sizeof(half));
        pipe.InitBuffer(floatBuf, rowsPerTile * pitch * sizeof(float));
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
        AscendC::LocalTensor<int8_t> in = inQueue.AllocTensor<int8_t>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), cols, 0, 0, 0};
        AscendC::DataCopyPadExtParams<int8_t> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(in, xGm[row * cols], copyParams, padParams);
        inQueue.EnQue(in);
    }
    __aicore__ inline void Compute(uint32_t rows)
    {
        AscendC::LocalTensor<int8_t> in = inQueue.DeQue<int8_t>();
        AscendC::LocalTensor<T> out = outQueue.AllocTensor<T>();
        uint32_t count = (rows - 1) * pitch + cols;
        AscendC::LocalTensor<half> h = halfBuf.Get<half>();
        AscendC::LocalTensor<float> f = floatBuf.Get<float>();
        AscendC::Cast(h, in, AscendC::RoundMode::CAST_NONE, count);
        AscendC::Cast(f, h, AscendC::RoundMode::CAST_NONE, count);
        for (uint32_t r = 0; r < rows; r++) {
            AscendC::Add(f[r * pitch], f[r * pitch], params[pitch], cols);
            if constexpr (std::is_same_v<T, float>) {
                AscendC::Mul(out[r * pitch], f[r * pitch], params, cols);
            } else {
                AscendC::Mul(f[r * pitch], f[r * pitch], params, cols);
            }
        }
        if constexpr (!std::is_same_v<T, float>) {
            AscendC::Cast(out, f, AscendC::RoundMode::CAST_RINT, count);
        }
        outQueue.EnQue<T>(out);
        inQueue.FreeTensor(in);
    }
    __aicore__ inline void CopyOut(uint64_t row, uint32_t rows)
    {
        AscendC::LocalTensor<T> out = outQueue.DeQue<T>();
        constexpr uint32_t alignNum = 32 / sizeof(T);
        uint32_t gapBlocks = pitch / alignNum - (cols + alignNum - 1) / alignNum;
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)),
                                              gapBlocks, 0, 0};
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
    AscendC::GlobalTensor<int8_t> xGm;
    AscendC::GlobalTensor<T> yGm;
    AscendC::GlobalTensor<float> scaleGm, offsetGm;
    uint64_t rowStart = 0;
    uint32_t blockRows = 0;
    uint32_t cols = 0;
    uint32_t pitch = 0;
    uint32_t rowsPerTile = 0;
};

extern "C" __global__ __aicore__ void dequantize_per_channel_custom(GM_ADDR x, GM_ADDR scale, GM_ADDR offset,
                                                                    GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelDequantizePerChannel<DTYPE_Y> op;
    op.Init(x, scale, offset, y, tilingData);
    op.Process();
}
