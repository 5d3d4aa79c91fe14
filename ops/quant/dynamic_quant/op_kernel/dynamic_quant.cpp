// Kernel of DynamicQuantCustom: per-row dynamic int8 quantization of x [rows, cols]:
//   scale[r] = max|x[r, :]| / 127,  y[r, c] = round(x[r, c] * (127 / max|x[r, :]|)) as int8
// (an all-zero row gives scale 0 and y 0). Each core takes a contiguous range of rows and
// streams tiles of whole rows through UB with double buffering (CopyIn on MTE2, Compute
// on V and S, CopyOut on MTE3 overlap across tiles). Every row sits at a 32-element UB
// stride so that its float copy, its 16-bit input and its int8 output all start on 32 B.
// A row too long for UB is read twice in chunks: once for its maximum, once to quantize.
// Compute in float: the row maximum (Abs + ReduceMax) is read by the scalar unit, which
// forms 127 / max; Muls scales the row; float -> half with CAST_ODD then half -> int8 with
// CAST_RINT rounds the float product once to the nearest integer (ties to even): the
// round-to-odd step keeps the half intermediate from creating false ties.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_ROWS_PER_TILE = 512;  // as in the tiling function
constexpr float INT8_MAX_F = 127.0f;

template <typename T>
class KernelDynamicQuant {
public:
    __aicore__ inline KernelDynamicQuant() {}
    template <typename Tiling>
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR scale, const Tiling& tiling)
    {
        uint32_t blockIdx = AscendC::GetBlockIdx();
        uint64_t rowOffset = 0;
        if (blockIdx < tiling.formerNum) {
            blockRows = tiling.formerRows;
            rowOffset = static_cast<uint64_t>(tiling.formerRows) * blockIdx;
        } else {
            blockRows = tiling.tailRows;
            rowOffset = static_cast<uint64_t>(tiling.formerRows) * tiling.formerNum +
                        static_cast<uint64_t>(tiling.tailRows) * (blockIdx - tiling.formerNum);
        }
        cols = tiling.cols;
        rowStride = tiling.rowStride;
        rowsPerTile = tiling.rowsPerTile;
        chunkNum = tiling.chunkNum;
        tileNum = (blockRows + rowsPerTile - 1) / rowsPerTile;

        uint64_t elems = static_cast<uint64_t>(blockRows) * cols;
        xGm.SetGlobalBuffer((__gm__ T*)x + rowOffset * cols, elems);
        yGm.SetGlobalBuffer((__gm__ int8_t*)y + rowOffset * cols, elems);
        scaleGm.SetGlobalBuffer((__gm__ float*)scale + rowOffset, blockRows);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, rowsPerTile * rowStride * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, rowsPerTile * rowStride * sizeof(int8_t));
        pipe.InitBuffer(outQueueScale, BUFFER_NUM, MAX_ROWS_PER_TILE * sizeof(float));
        pipe.InitBuffer(floatBuf, rowsPerTile * rowStride * sizeof(float));
        pipe.InitBuffer(maxBuf, MAX_ROWS_PER_TILE * sizeof(float));
        pipe.InitBuffer(absBuf, rowStride * sizeof(float));
        pipe.InitBuffer(workBuf, rowStride * sizeof(float));
        pipe.InitBuffer(reduceBuf, 32);
    }
    __aicore__ inline void Process()
    {
        if (chunkNum > 1) {
            for (uint32_t r = 0; r < blockRows; r++) {
                QuantizeLongRow(r);
            }
            return;
        }
        for (uint32_t t = 0; t < tileNum; t++) {
            uint32_t rows = t == tileNum - 1 ? blockRows - t * rowsPerTile : rowsPerTile;
            uint64_t firstRow = static_cast<uint64_t>(t) * rowsPerTile;
            CopyIn(firstRow, rows);
            Compute(rows);
            CopyOut(firstRow, rows);
        }
    }

private:
    // `rows` rows from GM, each placed at a rowStride-element UB stride (the copy itself
    // pads every row to 32 B; the remaining gap is whole 32 B blocks).
    __aicore__ inline void CopyIn(uint64_t firstRow, uint32_t rows)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        uint32_t rowBytes = cols * sizeof(T);
        uint32_t paddedBytes = (rowBytes + 31) / 32 * 32;
        uint32_t gapBlocks = (rowStride * sizeof(T) - paddedBytes) / 32;
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), rowBytes, 0, gapBlocks, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(xLocal, xGm[firstRow * cols], copyParams, padParams);
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void Compute(uint32_t rows)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<int8_t> yLocal = outQueueY.AllocTensor<int8_t>();
        AscendC::LocalTensor<float> scaleLocal = outQueueScale.AllocTensor<float>();
        AscendC::LocalTensor<float> xf = floatBuf.Get<float>();
        AscendC::LocalTensor<float> maxes = maxBuf.Get<float>();
        AscendC::LocalTensor<float> absRow = absBuf.Get<float>();
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::LocalTensor<float> result = reduceBuf.Get<float>();
        int32_t tileElems = static_cast<int32_t>(rows * rowStride);

        AscendC::Cast(xf, xLocal, AscendC::RoundMode::CAST_NONE, tileElems);
        for (uint32_t r = 0; r < rows; r++) {
            AscendC::LocalTensor<float> row = xf[r * rowStride];
            AscendC::Abs(absRow, row, static_cast<int32_t>(cols));
            AscendC::ReduceMax(result, absRow, work, static_cast<int32_t>(cols));
            WaitVectorForScalar();
            float maxAbs = result.GetValue(0);
            maxes.SetValue(r, maxAbs);
            // An all-zero row stays zero (no 127 / 0).
            float invScale = maxAbs > 0.0f ? INT8_MAX_F / maxAbs : 0.0f;
            AscendC::Muls(row, row, invScale, static_cast<int32_t>(cols));
        }
        WaitScalarForVector();
        AscendC::Muls(scaleLocal, maxes, 1.0f / INT8_MAX_F, static_cast<int32_t>(rows));
        // The 16-bit input tile is dead after the float copy: it holds the half step.
        AscendC::LocalTensor<half> xh = xLocal.template ReinterpretCast<half>();
        AscendC::Cast(xh, xf, AscendC::RoundMode::CAST_ODD, tileElems);
        AscendC::Cast(yLocal, xh, AscendC::RoundMode::CAST_RINT, tileElems);
        outQueueY.EnQue<int8_t>(yLocal);
        outQueueScale.EnQue<float>(scaleLocal);
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint64_t firstRow, uint32_t rows)
    {
        AscendC::LocalTensor<int8_t> yLocal = outQueueY.DeQue<int8_t>();
        AscendC::LocalTensor<float> scaleLocal = outQueueScale.DeQue<float>();
        // UB rows are rowStride bytes apart, exactly the 32 B-rounded row: no source gap.
        AscendC::DataCopyExtParams yParams{static_cast<uint16_t>(rows), cols, 0, 0, 0};
        AscendC::DataCopyPad(yGm[firstRow * cols], yLocal, yParams);
        AscendC::DataCopyExtParams scaleParams{1, static_cast<uint32_t>(rows * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(scaleGm[firstRow], scaleLocal, scaleParams);
        outQueueY.FreeTensor(yLocal);
        outQueueScale.FreeTensor(scaleLocal);
    }
    // One row of more than rowStride elements, in chunkNum chunks of rowStride.
    __aicore__ inline void QuantizeLongRow(uint32_t r)
    {
        uint64_t rowBase = static_cast<uint64_t>(r) * cols;
        AscendC::LocalTensor<float> xf = floatBuf.Get<float>();
        AscendC::LocalTensor<float> absRow = absBuf.Get<float>();
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::LocalTensor<float> result = reduceBuf.Get<float>();
        float maxAbs = 0.0f;
        for (uint32_t c = 0; c < chunkNum; c++) {
            uint32_t len = ChunkElems(c);
            CopyChunkIn(rowBase + static_cast<uint64_t>(c) * rowStride, len);
            AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
            AscendC::Cast(xf, xLocal, AscendC::RoundMode::CAST_NONE, static_cast<int32_t>(len));
            inQueueX.FreeTensor(xLocal);
            AscendC::Abs(absRow, xf, static_cast<int32_t>(len));
            AscendC::ReduceMax(result, absRow, work, static_cast<int32_t>(len));
            WaitVectorForScalar();
            float part = result.GetValue(0);
            maxAbs = part > maxAbs ? part : maxAbs;
        }
        float invScale = maxAbs > 0.0f ? INT8_MAX_F / maxAbs : 0.0f;

        AscendC::LocalTensor<float> maxes = maxBuf.Get<float>();
        maxes.SetValue(0, maxAbs);
        WaitScalarForVector();
        AscendC::LocalTensor<float> scaleLocal = outQueueScale.AllocTensor<float>();
        AscendC::Muls(scaleLocal, maxes, 1.0f / INT8_MAX_F, 1);
        outQueueScale.EnQue<float>(scaleLocal);
        scaleLocal = outQueueScale.DeQue<float>();
        AscendC::DataCopyExtParams scaleParams{1, sizeof(float), 0, 0, 0};
        AscendC::DataCopyPad(scaleGm[r], scaleLocal, scaleParams);
        outQueueScale.FreeTensor(scaleLocal);

        for (uint32_t c = 0; c < chunkNum; c++) {
            uint32_t len = ChunkElems(c);
            uint64_t offset = rowBase + static_cast<uint64_t>(c) * rowStride;
            CopyChunkIn(offset, len);
            AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
            AscendC::LocalTensor<int8_t> yLocal = outQueueY.AllocTensor<int8_t>();
            AscendC::Cast(xf, xLocal, AscendC::RoundMode::CAST_NONE, static_cast<int32_t>(len));
            AscendC::Muls(xf, xf, invScale, static_cast<int32_t>(len));
            AscendC::LocalTensor<half> xh = xLocal.template ReinterpretCast<half>();
            AscendC::Cast(xh, xf, AscendC::RoundMode::CAST_ODD, static_cast<int32_t>(len));
            AscendC::Cast(yLocal, xh, AscendC::RoundMode::CAST_RINT, static_cast<int32_t>(len));
            outQueueY.EnQue<int8_t>(yLocal);
            inQueueX.FreeTensor(xLocal);
            yLocal = outQueueY.DeQue<int8_t>();
            AscendC::DataCopyExtParams yParams{1, len, 0, 0, 0};
            AscendC::DataCopyPad(yGm[offset], yLocal, yParams);
            outQueueY.FreeTensor(yLocal);
        }
    }
    __aicore__ inline uint32_t ChunkElems(uint32_t c) const
    {
        return c == chunkNum - 1 ? cols - c * rowStride : rowStride;
    }
    __aicore__ inline void CopyChunkIn(uint64_t offset, uint32_t len)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
        inQueueX.EnQue(xLocal);
    }
    // The scalar unit reads a vector result only after the vector pipe has written it.
    __aicore__ inline void WaitVectorForScalar()
    {
        event_t eventId = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(eventId);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(eventId);
    }
    // Vector instructions read the scalar-written maxima only after those writes land.
    __aicore__ inline void WaitScalarForVector()
    {
        event_t eventId = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::S_V));
        AscendC::SetFlag<AscendC::HardEvent::S_V>(eventId);
        AscendC::WaitFlag<AscendC::HardEvent::S_V>(eventId);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY, outQueueScale;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> floatBuf, maxBuf, absBuf, workBuf, reduceBuf;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<int8_t> yGm;
    AscendC::GlobalTensor<float> scaleGm;
    uint32_t blockRows = 0;
    uint32_t cols = 0;
    uint32_t rowStride = 0;
    uint32_t rowsPerTile = 0;
    uint32_t chunkNum = 1;
    uint32_t tileNum = 0;
};

extern "C" __global__ __aicore__ void dynamic_quant_custom(GM_ADDR x, GM_ADDR y, GM_ADDR scale, GM_ADDR workspace,
                                                           GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelDynamicQuant<DTYPE_X> op;
    op.Init(x, y, scale, tilingData);
    op.Process();
}
