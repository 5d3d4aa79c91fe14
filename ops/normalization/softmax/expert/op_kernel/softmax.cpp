// Kernel of SoftmaxCustom (expert): softmax over the last axis. Each core owns a range of
// rows; tiles of whole rows stream through UB with double buffering. Rows are
// padded to a 32 B pitch in UB (DataCopyPad), so any last dimension works. Half
// inputs are computed in float: max, x - max, exp, sum, scale by 1/sum.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t PART_FLOATS = 64;   // float lanes of one repeat: partial results per row
constexpr uint32_t ROWS_PER_OP = 248;  // rows per strided op: <= 255 repeats, 32 B-aligned offsets

template <typename T>
class KernelSoftmax {
public:
    __aicore__ inline KernelSoftmax() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t cols, uint32_t colsAligned, uint32_t formerNum,
                                uint32_t formerRows, uint32_t tailRows, uint32_t rowsPerTile, uint32_t vecRows)
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
        this->vecRows = vecRows;
        pipe.InitBuffer(inQueueX, BUFFER_NUM, rowsPerTile * colsAligned * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, rowsPerTile * colsAligned * sizeof(T));
        if (vecRows != 0) {
            if constexpr (!std::is_same_v<T, float>) {
                pipe.InitBuffer(calcBuf, rowsPerTile * colsAligned * sizeof(float));
            }
            uint32_t opRows = rowsPerTile < ROWS_PER_OP ? rowsPerTile : ROWS_PER_OP;
            pipe.InitBuffer(workBuf, opRows * PART_FLOATS * sizeof(float));
            pipe.InitBuffer(reduceBuf, (opRows + 7) / 8 * 8 * sizeof(float));
            pipe.InitBuffer(brcbBuf, (opRows + 7) / 8 * 8 * 32);
            return;
        }
        if constexpr (!std::is_same_v<T, float>) {
            pipe.InitBuffer(calcBuf, colsAligned * sizeof(float));
        }
        pipe.InitBuffer(workBuf, colsAligned * sizeof(float));
        pipe.InitBuffer(reduceBuf, 32);
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < this->tileNum; i++) {
            uint32_t rows = (i == this->tileNum - 1) ? this->blockRows - i * this->rowsPerTile : this->rowsPerTile;
            CopyIn(i, rows);
            Compute(rows);
            CopyOut(i, rows);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t progress, uint32_t rows)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        // One block per row: each row lands on a 32 B boundary in UB.
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows),
                                              static_cast<uint32_t>(this->cols * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(xLocal, xGm[static_cast<uint64_t>(progress) * this->rowsPerTile * this->cols], copyParams,
                             padParams);
        inQueueX.EnQue(xLocal);
    }
    // dst = softmax(src) for one row of float; dst may be src.
    __aicore__ inline void SoftmaxRow(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<float>& src)
    {
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::LocalTensor<float> result = reduceBuf.Get<float>();
        AscendC::ReduceMax(result, src, work, this->cols);
        // The scalar read must wait for the vector reduction to land in UB.
        AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
        float rowMax = result.GetValue(0);
        AscendC::Adds(dst, src, -rowMax, this->cols);
        AscendC::Exp(dst, dst, this->cols);
        AscendC::ReduceSum(result, dst, work, this->cols);
        // The scalar read must wait for the vector reduction to land in UB.
        AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(EVENT_ID0);
        float rowSum = result.GetValue(0);
        AscendC::Muls(dst, dst, 1.0f / rowSum, this->cols);
    }
    // expert: vectorised softmax over a tile of rows at float pitch colsAligned. Every
    // step is one strided instruction per 64-column slice with the rows as repeats: the
    // row max and sum come from slice-wise Max/Add into 64 partials per row plus one
    // WholeReduce, and Brcb spreads the per-row max and 1/sum into one 32 B block per row
    // that a repeat-stride-1, block-stride-0 operand applies to that row. No per-row
    // reductions, scalar reads or V->S syncs.
    __aicore__ inline void SoftmaxRows(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<float>& src,
                                       uint32_t rows)
    {
        AscendC::LocalTensor<float> part = workBuf.Get<float>();
        AscendC::LocalTensor<float> stat = reduceBuf.Get<float>();
        AscendC::LocalTensor<float> bc = brcbBuf.Get<float>();
        uint8_t pb = static_cast<uint8_t>(this->colsAligned * sizeof(float) / 32);
        uint32_t lanes0 = this->cols < PART_FLOATS ? this->cols : PART_FLOATS;
        AscendC::UnaryRepeatParams toPart{1, 1, 8, pb};
        AscendC::BinaryRepeatParams foldPart{1, 1, 1, 8, 8, pb};
        AscendC::BinaryRepeatParams perRow{1, 1, 0, pb, pb, 1};
        AscendC::UnaryRepeatParams inRow{1, 1, pb, pb};
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
            // exp(x - max), slice by slice.
            for (uint32_t c = 0; c < this->cols; c += PART_FLOATS) {
                uint64_t lanes = this->cols - c < PART_FLOATS ? this->cols - c : PART_FLOATS;
                AscendC::Sub(d[c], s[c], bc, lanes, reps, perRow);
                AscendC::Exp(d[c], d[c], lanes, reps, inRow);
            }
            // Row sum, its reciprocal, and the scaling.
            AscendC::Adds(part, d, 0.0f, lanes0, reps, toPart);
            for (uint32_t c = PART_FLOATS; c < this->cols; c += PART_FLOATS) {
                uint64_t lanes = this->cols - c < PART_FLOATS ? this->cols - c : PART_FLOATS;
                AscendC::Add(part, part, d[c], lanes, reps, foldPart);
            }
            AscendC::WholeReduceSum(stat, part, static_cast<int32_t>(lanes0), reps, 1, 1, 8);
            AscendC::Reciprocal(stat, stat, reps);
            AscendC::Brcb(bc, stat, brcbReps, AscendC::BrcbRepeatParams{1, 8});
            for (uint32_t c = 0; c < this->cols; c += PART_FLOATS) {
                uint64_t lanes = this->cols - c < PART_FLOATS ? this->cols - c : PART_FLOATS;
                AscendC::Mul(d[c], d[c], bc, lanes, reps, perRow);
            }
        }
    }
    __aicore__ inline void Compute(uint32_t rows)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        if (this->vecRows != 0) {
            if constexpr (std::is_same_v<T, float>) {
                SoftmaxRows(yLocal, xLocal, rows);
            } else {
                AscendC::LocalTensor<float> calc = calcBuf.Get<float>();
                uint32_t count = rows * this->colsAligned;
                AscendC::Cast(calc, xLocal, AscendC::RoundMode::CAST_NONE, count);
                SoftmaxRows(calc, calc, rows);
                AscendC::Cast(yLocal, calc, AscendC::RoundMode::CAST_RINT, count);
            }
            outQueueY.EnQue<T>(yLocal);
            inQueueX.FreeTensor(xLocal);
            return;
        }
        for (uint32_t r = 0; r < rows; r++) {
            uint32_t offset = r * this->colsAligned;
            if constexpr (std::is_same_v<T, float>) {
                SoftmaxRow(yLocal[offset], xLocal[offset]);
            } else {
                AscendC::LocalTensor<float> calc = calcBuf.Get<float>();
                AscendC::Cast(calc, xLocal[offset], AscendC::RoundMode::CAST_NONE, this->cols);
                SoftmaxRow(calc, calc);
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

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> calcBuf, workBuf, reduceBuf, brcbBuf;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> yGm;
    uint32_t blockRows = 0;
    uint32_t cols = 0;
    uint32_t colsAligned = 0;
    uint32_t rowsPerTile = 0;
    uint32_t tileNum = 0;
    uint32_t vecRows = 0;
};

extern "C" __global__ __aicore__ void softmax_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelSoftmax<DTYPE_X> op;
    op.Init(x, y, tilingData.cols, tilingData.colsAligned, tilingData.formerNum, tilingData.formerRows,
            tilingData.tailRows, tilingData.rowsPerTile, tilingData.vecRows);
    op.Process();
}
