// Kernel of GegluCustom: y[r, j] = gelu_tanh(x[r, j]) * x[r, H + j]. Each core owns a
// contiguous range of rows. A tile holds both halves of several rows (two DataCopyPads that
// skip the other half with a GM-side gap, each half row on its own pitch) or a column chunk
// of one long row. Rows land on 32 B boundaries in UB and a, b and y tiles share that
// layout, so the math runs on each tile as one contiguous range. gelu(a) = 0.5 a (1 + tanh(u)) is computed as a / (1 + exp(-2u)) on whole
// tiles in float; queues are double-buffered.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelGeglu {
    static constexpr bool COMPUTE_IN_FLOAT = !std::is_same_v<T, float>;

public:
    __aicore__ inline KernelGeglu() {}
    template <typename Tiling>
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const Tiling& tiling)
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
        half = tiling.half;
        chunk = tiling.chunk;
        pitch = tiling.pitch;
        rowsPerTile = tiling.rowsPerTile;
        tileElems = rowsPerTile * pitch;
        xGm.SetGlobalBuffer((__gm__ T*)x);
        yGm.SetGlobalBuffer((__gm__ T*)y);
        pipe.InitBuffer(inQueue, tiling.bufferNum, 2 * tileElems * sizeof(T));  // [a tile | b tile]
        pipe.InitBuffer(outQueue, tiling.bufferNum, tileElems * sizeof(T));
        pipe.InitBuffer(workBuf, tileElems * sizeof(float));
        if constexpr (COMPUTE_IN_FLOAT) {
            pipe.InitBuffer(floatBuf, 2 * tileElems * sizeof(float));
        }
    }
    __aicore__ inline void Process()
    {
        for (uint32_t done = 0; done < blockRows; done += rowsPerTile) {
            uint32_t rows = blockRows - done < rowsPerTile ? blockRows - done : rowsPerTile;
            uint64_t row = rowStart + done;
            for (uint32_t col = 0; col < half; col += chunk) {
                uint32_t len = half - col < chunk ? half - col : chunk;
                CopyIn(row, rows, col, len);
                Compute((rows - 1) * pitch + len);
                CopyOut(row, rows, col, len);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t row, uint32_t rows, uint32_t col, uint32_t len)
    {
        AscendC::LocalTensor<T> in = inQueue.AllocTensor<T>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(len * sizeof(T)),
                                              static_cast<uint32_t>((2 * half - len) * sizeof(T)), 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        uint64_t offset = row * 2 * half + col;
        AscendC::DataCopyPad(in, xGm[offset], copyParams, padParams);
        AscendC::DataCopyPad(in[tileElems], xGm[offset + half], copyParams, padParams);
        inQueue.EnQue(in);
    }
    // y = a / (1 + exp(-2 sqrt(2/pi) (a + 0.044715 a^3))) * b on `count` floats; y may be a.
    __aicore__ inline void GegluFloat(const AscendC::LocalTensor<float>& y, const AscendC::LocalTensor<float>& a,
                                      const AscendC::LocalTensor<float>& b, uint32_t count)
    {
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::Mul(work, a, a, count);
        AscendC::Mul(work, work, a, count);
        AscendC::Muls(work, work, 0.044715f, count);
        AscendC::Add(work, work, a, count);
        AscendC::Muls(work, work, -1.5957691216057308f, count);  // -2 sqrt(2/pi)
        AscendC::Exp(work, work, count);
        AscendC::Adds(work, work, 1.0f, count);
        AscendC::Div(work, a, work, count);
        AscendC::Mul(y, work, b, count);
    }
    __aicore__ inline void Compute(uint32_t count)
    {
        AscendC::LocalTensor<T> in = inQueue.DeQue<T>();
        AscendC::LocalTensor<T> out = outQueue.AllocTensor<T>();
        if constexpr (COMPUTE_IN_FLOAT) {
            AscendC::LocalTensor<float> f = floatBuf.Get<float>();
            AscendC::Cast(f, in, AscendC::RoundMode::CAST_NONE, count);
            AscendC::Cast(f[tileElems], in[tileElems], AscendC::RoundMode::CAST_NONE, count);
            GegluFloat(f, f, f[tileElems], count);
            AscendC::Cast(out, f, AscendC::RoundMode::CAST_RINT, count);
        } else {
            GegluFloat(out, in, in[tileElems], count);
        }
        outQueue.EnQue<T>(out);
        inQueue.FreeTensor(in);
    }
    __aicore__ inline void CopyOut(uint64_t row, uint32_t rows, uint32_t col, uint32_t len)
    {
        AscendC::LocalTensor<T> out = outQueue.DeQue<T>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(len * sizeof(T)), 0,
                                              static_cast<uint32_t>((half - len) * sizeof(T)), 0};
        AscendC::DataCopyPad(yGm[row * half + col], out, copyParams);
        outQueue.FreeTensor(out);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> workBuf, floatBuf;
    AscendC::GlobalTensor<T> xGm, yGm;
    uint64_t rowStart = 0;
    uint32_t blockRows = 0;
    uint32_t half = 0;
    uint32_t chunk = 0;
    uint32_t pitch = 0;
    uint32_t rowsPerTile = 0;
    uint32_t tileElems = 0;
};

extern "C" __global__ __aicore__ void geglu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelGeglu<DTYPE_X> op;
    op.Init(x, y, tilingData);
    op.Process();
}
