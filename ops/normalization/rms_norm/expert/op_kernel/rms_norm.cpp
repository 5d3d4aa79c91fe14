// Kernel of RmsNormCustom (expert) over the last axis. gamma is loaded once per core and kept
// in float; rows stream through UB in tiles with double buffering, each row padded to
// a 32 B pitch (DataCopyPad) so any last dimension works. The statistic and the
// scaling are computed in float for every dtype.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t PART_FLOATS = 64;   // float lanes of one repeat: partial sums per row
constexpr uint32_t ROWS_PER_OP = 248;  // rows per strided op: <= 255 repeats, 32 B-aligned offsets

template <typename T>
class KernelRmsNorm {
public:
    __aicore__ inline KernelRmsNorm() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, uint32_t cols, uint32_t colsAligned,
                                uint32_t formerNum, uint32_t formerRows, uint32_t tailRows, uint32_t rowsPerTile,
                                float epsilon, float avgFactor, uint32_t vecRows, uint32_t padBytes)
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

        // expert: with padBytes != 0, tile 0's input and output fill the first 64 KB bank
        // region of UB, tile 1's the second and gamma with the float scratch the third: a copy
        // of one tile never waits for a vector instruction on the other tile's banks.
        uint32_t tileBytes = rowsPerTile * colsAligned * sizeof(T);
        for (int32_t b = 0; b < BUFFER_NUM; b++) {
            pipe.InitBuffer(inQueueX[b], 1, tileBytes);
            pipe.InitBuffer(outQueueY[b], 1, tileBytes);
            if (padBytes != 0) {
                pipe.InitBuffer(padBuf[b], padBytes);
            }
        }
        pipe.InitBuffer(inQueueGamma, 1, colsAligned * sizeof(T));
        pipe.InitBuffer(gammaFloatBuf, colsAligned * sizeof(float));
        this->vecRows = vecRows;
        if (vecRows != 0) {
            if constexpr (!std::is_same_v<T, float>) {
                pipe.InitBuffer(calcBuf, rowsPerTile * colsAligned * sizeof(float));
            }
            uint32_t opRows = rowsPerTile < ROWS_PER_OP ? rowsPerTile : ROWS_PER_OP;
            pipe.InitBuffer(squareBuf, opRows * PART_FLOATS * sizeof(float));
            pipe.InitBuffer(workBuf, opRows * PART_FLOATS * sizeof(float));
            pipe.InitBuffer(reduceBuf, (opRows + 7) / 8 * 8 * sizeof(float));
            pipe.InitBuffer(brcbBuf, (opRows + 7) / 8 * 8 * 32);
            return;
        }
        if constexpr (!std::is_same_v<T, float>) {
            pipe.InitBuffer(calcBuf, colsAligned * sizeof(float));
        }
        pipe.InitBuffer(squareBuf, colsAligned * sizeof(float));
        // ReduceSum's workspace holds one partial per 64-float repeat.
        pipe.InitBuffer(workBuf, ((colsAligned + 63) / 64 + 7) / 8 * 32);
        pipe.InitBuffer(reduceBuf, 32);
    }
    __aicore__ inline void Process()
    {
        LoadGamma();
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
        AscendC::LocalTensor<T> xLocal = inQueueX[progress % BUFFER_NUM].AllocTensor<T>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows),
                                              static_cast<uint32_t>(this->cols * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(xLocal, xGm[static_cast<uint64_t>(progress) * this->rowsPerTile * this->cols], copyParams,
                             padParams);
        inQueueX[progress % BUFFER_NUM].EnQue(xLocal);
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
    // expert: vectorised RMS norm over a tile of rows at float pitch colsAligned. Each step
    // is one strided instruction per 64-column slice with the rows as repeats: squares of a
    // slice fold into 64 partial sums per row, one WholeReduceSum gives every row's sum,
    // the statistic is finished on the short vector of row sums, and Brcb spreads each
    // row's rstd into a 32 B block that a block-stride-0 operand applies to that row; gamma
    // is applied with repeat stride 0. No per-row reductions, scalar reads or V->S syncs.
    __aicore__ inline void RmsNormRows(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<float>& src,
                                       uint32_t rows)
    {
        AscendC::LocalTensor<float> sq = squareBuf.Get<float>();
        AscendC::LocalTensor<float> part = workBuf.Get<float>();
        AscendC::LocalTensor<float> stat = reduceBuf.Get<float>();
        AscendC::LocalTensor<float> bc = brcbBuf.Get<float>();
        AscendC::LocalTensor<float> gammaFloat = gammaFloatBuf.Get<float>();
        uint8_t pb = static_cast<uint8_t>(this->colsAligned * sizeof(float) / 32);
        uint32_t lanes0 = this->cols < PART_FLOATS ? this->cols : PART_FLOATS;
        AscendC::BinaryRepeatParams squareSlice{1, 1, 1, 8, pb, pb};
        AscendC::BinaryRepeatParams foldPart{1, 1, 1, 8, 8, 8};
        AscendC::BinaryRepeatParams perRow{1, 1, 0, pb, pb, 1};
        AscendC::BinaryRepeatParams sameForRows{1, 1, 1, pb, pb, 0};
        for (uint32_t r0 = 0; r0 < rows; r0 += ROWS_PER_OP) {
            uint8_t reps = static_cast<uint8_t>(rows - r0 < ROWS_PER_OP ? rows - r0 : ROWS_PER_OP);
            AscendC::LocalTensor<float> s = src[r0 * this->colsAligned];
            AscendC::LocalTensor<float> d = dst[r0 * this->colsAligned];
            AscendC::Mul(part, s, s, lanes0, reps, squareSlice);
            for (uint32_t c = PART_FLOATS; c < this->cols; c += PART_FLOATS) {
                uint64_t lanes = this->cols - c < PART_FLOATS ? this->cols - c : PART_FLOATS;
                AscendC::Mul(sq, s[c], s[c], lanes, reps, squareSlice);
                AscendC::Add(part, part, sq, lanes, reps, foldPart);
            }
            AscendC::WholeReduceSum(stat, part, static_cast<int32_t>(lanes0), reps, 1, 1, 8);
            AscendC::Muls(stat, stat, this->avgFactor, reps);
            AscendC::Adds(stat, stat, this->epsilon, reps);
            AscendC::Rsqrt(stat, stat, reps);
            AscendC::Brcb(bc, stat, static_cast<uint8_t>((reps + 7) / 8), AscendC::BrcbRepeatParams{1, 8});
            for (uint32_t c = 0; c < this->cols; c += PART_FLOATS) {
                uint64_t lanes = this->cols - c < PART_FLOATS ? this->cols - c : PART_FLOATS;
                AscendC::Mul(d[c], s[c], bc, lanes, reps, perRow);
                AscendC::Mul(d[c], d[c], gammaFloat[c], lanes, reps, sameForRows);
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
                RmsNormRows(yLocal, xLocal, rows);
            } else {
                AscendC::LocalTensor<float> calc = calcBuf.Get<float>();
                uint32_t count = rows * this->colsAligned;
                AscendC::Cast(calc, xLocal, AscendC::RoundMode::CAST_NONE, count);
                RmsNormRows(calc, calc, rows);
                AscendC::Cast(yLocal, calc, AscendC::RoundMode::CAST_RINT, count);
            }
            outQ.EnQue<T>(yLocal);
            inQ.FreeTensor(xLocal);
            return;
        }
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
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueGamma;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> gammaFloatBuf, calcBuf, squareBuf, workBuf, reduceBuf, brcbBuf,
        padBuf[BUFFER_NUM];
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
    uint32_t vecRows = 0;
};

extern "C" __global__ __aicore__ void rms_norm_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR workspace,
                                                      GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelRmsNorm<DTYPE_X> op;
    op.Init(x, gamma, y, tilingData.cols, tilingData.colsAligned, tilingData.formerNum, tilingData.formerRows,
            tilingData.tailRows, tilingData.rowsPerTile, tilingData.epsilon, tilingData.avgFactor,
            tilingData.vecRows, tilingData.padBytes);
    op.Process();
}
