// Kernel of ArgMinCustom: y[r] = index (int32) of the first minimum of row r of x over the
// last axis; a NaN counts as the minimum. Each core owns a contiguous range of rows. Rows
// that fit in UB travel several per tile (DataCopy when rows are whole 32 B blocks,
// DataCopyPad onto a 32 B row pitch otherwise); longer rows stream in column chunks whose
// minima are combined in order. The next tile's copy is issued before the current one is
// reduced, so MTE2 overlaps the reductions (double-buffered input queue). fp16 and fp32
// reduce natively (ReduceMin with index); bf16 is widened to float (exact).
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t REPEAT_SIZE = 256;

template <typename T>
class KernelArgMin {
    static constexpr bool COMPUTE_IN_FLOAT = std::is_same_v<T, bfloat16_t>;
    using C = std::conditional_t<COMPUTE_IN_FLOAT, float, T>;  // type ReduceMin runs on
    using IndexBits = std::conditional_t<sizeof(C) == 2, uint16_t, uint32_t>;

public:
    __aicore__ inline KernelArgMin() {}
    template <typename Tiling>
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const Tiling& tiling)
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
        rowPitch = tiling.rowPitch;
        rowsPerTile = tiling.rowsPerTile;
        chunkLen = tiling.chunkLen;
        chunkNum = (cols + chunkLen - 1) / chunkLen;
        prefetch = tiling.bufferNum > 1;
        contiguousRows = (cols * sizeof(T)) % 32 == 0;

        xGm.SetGlobalBuffer((__gm__ T*)x + rowOffset * cols, static_cast<uint64_t>(blockRows) * cols);
        yGm.SetGlobalBuffer((__gm__ int32_t*)y + rowOffset, blockRows);
        uint32_t inElems = chunkNum == 1 ? rowsPerTile * rowPitch : chunkLen;
        pipe.InitBuffer(inQueueX, tiling.bufferNum, inElems * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, (rowsPerTile * sizeof(int32_t) + 31) / 32 * 32);
        if constexpr (COMPUTE_IN_FLOAT) {
            pipe.InitBuffer(calcBuf, rowPitch * sizeof(float));
        }
        uint32_t repeats = (rowPitch * sizeof(C) + REPEAT_SIZE - 1) / REPEAT_SIZE;
        pipe.InitBuffer(workBuf, (2 * repeats * sizeof(C) + 31) / 32 * 32 + 32);
        pipe.InitBuffer(resultBuf, 32);
    }
    __aicore__ inline void Process()
    {
        if (blockRows == 0) {
            return;
        }
        if (chunkNum == 1) {
            ProcessWholeRows();
        } else {
            ProcessChunks();
        }
    }

private:
    __aicore__ inline void ProcessWholeRows()
    {
        uint32_t tileNum = (blockRows + rowsPerTile - 1) / rowsPerTile;
        CopyInRows(0);
        for (uint32_t t = 0; t < tileNum; t++) {
            if (prefetch && t + 1 < tileNum) {
                CopyInRows(t + 1);
            }
            uint32_t rows = TileRows(t);
            AscendC::LocalTensor<int32_t> yLocal = outQueueY.AllocTensor<int32_t>();
            AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
            float value = 0.0f;
            for (uint32_t r = 0; r < rows; r++) {
                yLocal.SetValue(r, static_cast<int32_t>(MinOf(xLocal[r * rowPitch], cols, value)));
            }
            inQueueX.FreeTensor(xLocal);
            if (!prefetch && t + 1 < tileNum) {
                CopyInRows(t + 1);
            }
            WaitScalarForCopyOut();
            outQueueY.EnQue<int32_t>(yLocal);
            CopyOut(t, rows);
        }
    }
    __aicore__ inline void ProcessChunks()
    {
        uint32_t tileNum = (blockRows + rowsPerTile - 1) / rowsPerTile;
        uint64_t steps = static_cast<uint64_t>(blockRows) * chunkNum;
        uint64_t step = 0;
        CopyInChunk(0);
        for (uint32_t t = 0; t < tileNum; t++) {
            uint32_t rows = TileRows(t);
            AscendC::LocalTensor<int32_t> yLocal = outQueueY.AllocTensor<int32_t>();
            for (uint32_t r = 0; r < rows; r++) {
                float best = 0.0f;
                uint32_t bestIndex = 0;
                for (uint32_t c = 0; c < chunkNum; c++, step++) {
                    if (prefetch && step + 1 < steps) {
                        CopyInChunk(step + 1);
                    }
                    AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
                    float part = 0.0f;
                    uint32_t partIndex = MinOf(xLocal, ChunkElems(c), part);
                    inQueueX.FreeTensor(xLocal);
                    if (!prefetch && step + 1 < steps) {
                        CopyInChunk(step + 1);
                    }
                    // Strictly smaller replaces, so the first minimum wins; a NaN wins over
                    // numbers and then stays.
                    if (c == 0 || (best == best && !(part >= best))) {
                        best = part;
                        bestIndex = c * chunkLen + partIndex;
                    }
                }
                yLocal.SetValue(r, static_cast<int32_t>(bestIndex));
            }
            WaitScalarForCopyOut();
            outQueueY.EnQue<int32_t>(yLocal);
            CopyOut(t, rows);
        }
    }
    __aicore__ inline uint32_t TileRows(uint32_t t) const
    {
        return blockRows - t * rowsPerTile < rowsPerTile ? blockRows - t * rowsPerTile : rowsPerTile;
    }
    __aicore__ inline uint32_t ChunkElems(uint32_t c) const
    {
        return c == chunkNum - 1 ? cols - c * chunkLen : chunkLen;
    }
    __aicore__ inline void CopyInRows(uint32_t t)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        uint32_t rows = TileRows(t);
        uint64_t offset = static_cast<uint64_t>(t) * rowsPerTile * cols;
        if (contiguousRows) {
            AscendC::DataCopy(xLocal, xGm[offset], rows * cols);
        } else {
            AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)),
                                                  0, 0, 0};
            AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
            AscendC::DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
        }
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void CopyInChunk(uint64_t step)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        uint32_t c = static_cast<uint32_t>(step % chunkNum);
        uint64_t offset = (step / chunkNum) * cols + static_cast<uint64_t>(c) * chunkLen;
        uint32_t len = ChunkElems(c);
        if (len == chunkLen) {
            AscendC::DataCopy(xLocal, xGm[offset], len);  // chunks are whole 256 B repeats
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
            AscendC::DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
        }
        inQueueX.EnQue(xLocal);
    }
    // Index of the first minimum of src[0, len) (a NaN counts as the minimum); its value in `value`.
    __aicore__ inline uint32_t MinOf(const AscendC::LocalTensor<T>& src, uint32_t len, float& value)
    {
        AscendC::LocalTensor<C> work = workBuf.Get<C>();
        AscendC::LocalTensor<C> result = resultBuf.Get<C>();
        if constexpr (COMPUTE_IN_FLOAT) {
            AscendC::LocalTensor<float> calc = calcBuf.Get<float>();
            AscendC::Cast(calc, src, AscendC::RoundMode::CAST_NONE, len);
            AscendC::ReduceMin(result, calc, work, len, true);
        } else {
            AscendC::ReduceMin(result, src, work, len, true);
        }
        WaitVectorForScalar();
        value = static_cast<float>(result.GetValue(0));
        // The index comes back as the bits of the second result element.
        return static_cast<uint32_t>(result.template ReinterpretCast<IndexBits>().GetValue(1));
    }
    __aicore__ inline void CopyOut(uint32_t tile, uint32_t rows)
    {
        AscendC::LocalTensor<int32_t> yLocal = outQueueY.DeQue<int32_t>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(rows * sizeof(int32_t)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[static_cast<uint64_t>(tile) * rowsPerTile], yLocal, copyParams);
        outQueueY.FreeTensor(yLocal);
    }
    // The scalar unit reads vector results only after the vector pipe has written them.
    __aicore__ inline void WaitVectorForScalar()
    {
        event_t eventId = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(eventId);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(eventId);
    }
    // The output copy reads scalar-written UB only after the scalar writes land.
    __aicore__ inline void WaitScalarForCopyOut()
    {
        event_t eventId = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::S_MTE3));
        AscendC::SetFlag<AscendC::HardEvent::S_MTE3>(eventId);
        AscendC::WaitFlag<AscendC::HardEvent::S_MTE3>(eventId);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> calcBuf, workBuf, resultBuf;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<int32_t> yGm;
    uint32_t blockRows = 0;
    uint32_t cols = 0;
    uint32_t rowPitch = 0;
    uint32_t rowsPerTile = 0;
    uint32_t chunkLen = 0;
    uint32_t chunkNum = 0;
    bool prefetch = true;
    bool contiguousRows = false;
};

extern "C" __global__ __aicore__ void argmin_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelArgMin<DTYPE_X> op;
    op.Init(x, y, tilingData);
    op.Process();
}
