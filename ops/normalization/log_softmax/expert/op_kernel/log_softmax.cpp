// Kernel of LogSoftmaxCustom (expert): log_softmax over the last axis. Each core owns a range
// of rows; tiles of whole rows stream through UB with double buffering. Rows are
// padded to a 32 B pitch in UB (DataCopyPad), so any last dimension works. Every
// dtype is computed in float (half and bf16 are cast): max, x - max, exp into
// scratch, sum, then (x - max) - ln(sum), which stays exact where exp underflows.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t PART_FLOATS = 64;   // float lanes of one repeat: partial results per row
constexpr uint32_t ROWS_PER_OP = 248;  // rows per strided op: <= 255 repeats, 32 B-aligned offsets

template <typename T>
class KernelLogSoftmax {
public:
    __aicore__ inline KernelLogSoftmax() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t cols, uint32_t colsAligned, uint32_t formerNum,
                                uint32_t formerRows, uint32_t tailRows, uint32_t rowsPerTile, uint32_t vecRows,
                                uint32_t padBytes)
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

        xGm.SetGlobalBuffer((__gm__ T*)x + rowOffset * cols, static_cast<uint64_t>(this->blockRows) * cols);
        yGm.SetGlobalBuffer((__gm__ T*)y + rowOffset * cols, static_cast<uint64_t>(this->blockRows) * cols);
        // expert: with padBytes != 0, tile 0's input and output fill the first 64 KB bank
        // region of UB, tile 1's the second and the float scratch the third: a copy of one
        // tile never waits for a vector instruction on the other tile's banks.
        uint32_t tileBytes = rowsPerTile * colsAligned * sizeof(T);
        for (int32_t b = 0; b < BUFFER_NUM; b++) {
            pipe.InitBuffer(inQueueX[b], 1, tileBytes);
            pipe.InitBuffer(outQueueY[b], 1, tileBytes);
            if (padBytes != 0) {
                pipe.InitBuffer(padBuf[b], padBytes);
            }
        }
        this->vecRows = vecRows;
        if (vecRows != 0) {
            if constexpr (!std::is_same_v<T, float>) {
                pipe.InitBuffer(calcBuf, rowsPerTile * colsAligned * sizeof(float));
            }
            uint32_t opRows = rowsPerTile < ROWS_PER_OP ? rowsPerTile : ROWS_PER_OP;
            pipe.InitBuffer(expBuf, opRows * PART_FLOATS * sizeof(float));
            pipe.InitBuffer(workBuf, opRows * PART_FLOATS * sizeof(float));
            pipe.InitBuffer(reduceBuf, (opRows + 7) / 8 * 8 * sizeof(float));
            pipe.InitBuffer(brcbBuf, (opRows + 7) / 8 * 8 * 32);
            return;
        }
        if constexpr (!std::is_same_v<T, float>) {
            pipe.InitBuffer(calcBuf, colsAligned * sizeof(float));
        }
        pipe.InitBuffer(expBuf, colsAligned * sizeof(float));
        pipe.InitBuffer(workBuf, colsAligned * sizeof(float));
        pipe.InitBuffer(reduceBuf, 32);
    }
    __aicore__ inline void Process()
    {
        // expert: the next tile's copy-in is issued before this tile's math, so MTE2 streams
        // while the vector unit (and the row path's scalar reads) work.
        if (this->tileNum == 0) {
            return;
        }
        CopyIn(0, TileRows(0));
        for (uint32_t i = 0; i < this->tileNum; i++) {
            if (i + 1 < this->tileNum) {
                CopyIn(i + 1, TileRows(i + 1));
            }
            uint32_t rows = TileRows(i);
            Compute(i, rows);
            CopyOut(i, rows);
        }
    }

private:
    __aicore__ inline uint32_t TileRows(uint32_t i)
    {
        return (i == this->tileNum - 1) ? this->blockRows - i * this->rowsPerTile : this->rowsPerTile;
    }
    __aicore__ inline void CopyIn(uint32_t progress, uint32_t rows)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX[progress % BUFFER_NUM].AllocTensor<T>();
        // One DataCopyPad block per row: each row lands on a 32 B boundary in UB.
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows),
                                              static_cast<uint32_t>(this->cols * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(xLocal, xGm[static_cast<uint64_t>(progress) * this->rowsPerTile * this->cols], copyParams,
                             padParams);
        inQueueX[progress % BUFFER_NUM].EnQue(xLocal);
    }
    // dst = log_softmax(src) for one float row; dst may be src.
    __aicore__ inline void LogSoftmaxRow(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<float>& src)
    {
        AscendC::LocalTensor<float> expRow = expBuf.Get<float>();
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::LocalTensor<float> result = reduceBuf.Get<float>();
        AscendC::ReduceMax(result, src, work, this->cols);
        WaitVectorForScalar();
        float rowMax = result.GetValue(0);
        AscendC::Adds(dst, src, -rowMax, this->cols);
        AscendC::Exp(expRow, dst, this->cols);
        AscendC::ReduceSum(result, expRow, work, this->cols);
        AscendC::Ln(result, result, 1);
        WaitVectorForScalar();
        float logSum = result.GetValue(0);
        AscendC::Adds(dst, dst, -logSum, this->cols);
    }
    // expert: vectorised log_softmax over a tile of rows at float pitch colsAligned. Every
    // step is one strided instruction per 64-column slice with the rows as repeats: the row
    // max comes from slice-wise Max into 64 partials per row plus one WholeReduceMax; each
    // slice of x - max is exponentiated into a 64-lane scratch and folded into the partial
    // sums; Ln of the sums and Brcb give one 32 B block per row that a block-stride-0
    // operand subtracts from that row. No per-row reductions, scalar reads or V->S syncs.
    __aicore__ inline void LogSoftmaxRows(const AscendC::LocalTensor<float>& dst,
                                          const AscendC::LocalTensor<float>& src, uint32_t rows)
    {
        AscendC::LocalTensor<float> ex = expBuf.Get<float>();
        AscendC::LocalTensor<float> part = workBuf.Get<float>();
        AscendC::LocalTensor<float> stat = reduceBuf.Get<float>();
        AscendC::LocalTensor<float> bc = brcbBuf.Get<float>();
        uint8_t pb = static_cast<uint8_t>(this->colsAligned * sizeof(float) / 32);
        uint32_t lanes0 = this->cols < PART_FLOATS ? this->cols : PART_FLOATS;
        AscendC::UnaryRepeatParams toPart{1, 1, 8, pb};
        AscendC::BinaryRepeatParams foldPart{1, 1, 1, 8, 8, pb};
        AscendC::BinaryRepeatParams foldScratch{1, 1, 1, 8, 8, 8};
        AscendC::BinaryRepeatParams perRow{1, 1, 0, pb, pb, 1};
        for (uint32_t r0 = 0; r0 < rows; r0 += ROWS_PER_OP) {
            uint8_t reps = static_cast<uint8_t>(rows - r0 < ROWS_PER_OP ? rows - r0 : ROWS_PER_OP);
            uint8_t brcbReps = static_cast<uint8_t>((reps + 7) / 8);
            AscendC::LocalTensor<float> s = src[r0 * this->colsAligned];
            AscendC::LocalTensor<float> d = dst[r0 * this->colsAligned];
            // Row max.
            AscendC::Adds(part, s, 0.0f, lanes0, reps, toPart);
            for (uint32_t c = PART_FLOATS; c < this->cols; c += PART_FLOATS) {
                uint64_t lanes = this->cols - c < PART_FLOATS ? this->cols - c : PART_FLOATS;
                AscendC::Max(part, part, s[c], lanes, reps, foldPart);
            }
            AscendC::WholeReduceMax(stat, part, static_cast<int32_t>(lanes0), reps, 1, 1, 8,
                                    AscendC::ReduceOrder::ORDER_ONLY_VALUE);
            AscendC::Brcb(bc, stat, brcbReps, AscendC::BrcbRepeatParams{1, 8});
            // d = x - max; the sum of exp(d) folds slice by slice into 64 partials per row.
            for (uint32_t c = 0; c < this->cols; c += PART_FLOATS) {
                uint64_t lanes = this->cols - c < PART_FLOATS ? this->cols - c : PART_FLOATS;
                AscendC::Sub(d[c], s[c], bc, lanes, reps, perRow);
                if (c == 0) {
                    AscendC::Exp(part, d, lanes, reps, toPart);
                } else {
                    AscendC::Exp(ex, d[c], lanes, reps, toPart);
                    AscendC::Add(part, part, ex, lanes, reps, foldScratch);
                }
            }
            AscendC::WholeReduceSum(stat, part, static_cast<int32_t>(lanes0), reps, 1, 1, 8);
            AscendC::Ln(stat, stat, reps);
            AscendC::Brcb(bc, stat, brcbReps, AscendC::BrcbRepeatParams{1, 8});
            for (uint32_t c = 0; c < this->cols; c += PART_FLOATS) {
                uint64_t lanes = this->cols - c < PART_FLOATS ? this->cols - c : PART_FLOATS;
                AscendC::Sub(d[c], d[c], bc, lanes, reps, perRow);
            }
        }
    }
    __aicore__ inline void Compute(uint32_t progress, uint32_t rows)
    {
        AscendC::TQue<AscendC::QuePosition::VECIN, 1>& inQ = inQueueX[progress % BUFFER_NUM];
        AscendC::TQue<AscendC::QuePosition::VECOUT, 1>& outQ = outQueueY[progress % BUFFER_NUM];
        AscendC::LocalTensor<T> xLocal = inQ.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQ.AllocTensor<T>();
        if (this->vecRows != 0) {
            if constexpr (std::is_same_v<T, float>) {
                LogSoftmaxRows(yLocal, xLocal, rows);
            } else {
                AscendC::LocalTensor<float> calc = calcBuf.Get<float>();
                uint32_t count = rows * this->colsAligned;
                AscendC::Cast(calc, xLocal, AscendC::RoundMode::CAST_NONE, count);
                LogSoftmaxRows(calc, calc, rows);
                AscendC::Cast(yLocal, calc, AscendC::RoundMode::CAST_RINT, count);
            }
            outQ.EnQue<T>(yLocal);
            inQ.FreeTensor(xLocal);
            return;
        }
        for (uint32_t r = 0; r < rows; r++) {
            uint32_t offset = r * this->colsAligned;
            if constexpr (std::is_same_v<T, float>) {
                LogSoftmaxRow(yLocal[offset], xLocal[offset]);
            } else {
                AscendC::LocalTensor<float> calc = calcBuf.Get<float>();
                AscendC::Cast(calc, xLocal[offset], AscendC::RoundMode::CAST_NONE, this->cols);
                LogSoftmaxRow(calc, calc);
                AscendC::Cast(yLocal[offset], calc, AscendC::RoundMode::CAST_RINT, this->cols);
            }
        }
        outQ.EnQue<T>(yLocal);
        inQ.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t progress, uint32_t rows)
    {
        AscendC::TQue<AscendC::QuePosition::VECOUT, 1>& outQ = outQueueY[progress % BUFFER_NUM];
        AscendC::LocalTensor<T> yLocal = outQ.DeQue<T>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows),
                                              static_cast<uint32_t>(this->cols * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[static_cast<uint64_t>(progress) * this->rowsPerTile * this->cols], yLocal, copyParams);
        outQ.FreeTensor(yLocal);
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
    // expert: one single-buffer queue per tile parity (double buffering by alternating them),
    // so the two tiles in flight can be placed in different UB banks.
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueX[BUFFER_NUM];
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueueY[BUFFER_NUM];
    AscendC::TBuf<AscendC::QuePosition::VECCALC> calcBuf, expBuf, workBuf, reduceBuf, brcbBuf, padBuf[BUFFER_NUM];
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> yGm;
    uint32_t blockRows = 0;
    uint32_t cols = 0;
    uint32_t colsAligned = 0;
    uint32_t rowsPerTile = 0;
    uint32_t tileNum = 0;
    uint32_t vecRows = 0;
};

extern "C" __global__ __aicore__ void log_softmax_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelLogSoftmax<DTYPE_X> op;
    op.Init(x, y, tilingData.cols, tilingData.colsAligned, tilingData.formerNum, tilingData.formerRows,
            tilingData.tailRows, tilingData.rowsPerTile, tilingData.vecRows, tilingData.padBytes);
    op.Process();
}
