// Kernel of MaskedSoftmaxCustom: y = softmax(x * scale + mask) over the last axis, row r of
// x using mask row r % Sq. Each core owns a contiguous range of rows; a tile holds several
// rows of x and the mask rows they use (copied in one or more runs where the mask wraps),
// each on a 32 B pitch (DataCopy for whole-block rows, DataCopyPad otherwise). Scale and mask
// are applied over the whole tile, then per row: ReduceMax, subtract, Exp, ReduceSum,
// multiply by the reciprocal. Rows of at most 64 elements (one float repeat; window
// attention, short sequences) skip the scalar unit: one WholeReduceMax/WholeReduceSum gives
// every row's maximum/sum, Brcb spreads them to one block per row, and a strided Sub/Div
// (the block re-read across the row) applies them, up to 248 rows per instruction. Longer
// rows (up to 2040 elements, the longest whose pitch a repeat stride can step) first fold
// their repeats into one with strided Max/Add across the tile's rows, then go the same way,
// their Sub/Div issued once per 64-element column of repeats. Queues are double-buffered;
// fp16/bf16 compute in float.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t SHORT_ROW = 64;     // floats in one vector repeat
constexpr uint32_t ROW_GROUP = 248;    // rows per repeat group (a multiple of 8, at most 255)
constexpr uint32_t MID_ROW_PITCH = 2040;  // longest float pitch a repeat stride (255 blocks) steps

template <typename T>
class KernelMaskedSoftmax {
    static constexpr bool COMPUTE_IN_FLOAT = !std::is_same_v<T, float>;

public:
    __aicore__ inline KernelMaskedSoftmax() {}
    template <typename Tiling>
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR mask, GM_ADDR y, const Tiling& tiling)
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
        maskRows = tiling.maskRows;
        pitch = tiling.pitch;
        rowsPerTile = tiling.rowsPerTile;
        scale = tiling.scale;
        aligned = (cols * sizeof(T)) % 32 == 0;
        tile = rowsPerTile * pitch;
        xGm.SetGlobalBuffer((__gm__ T*)x);
        maskGm.SetGlobalBuffer((__gm__ T*)mask);
        yGm.SetGlobalBuffer((__gm__ T*)y);
        pipe.InitBuffer(inQueue, tiling.bufferNum, 2 * tile * sizeof(T));  // [x tile | mask tile]
        pipe.InitBuffer(outQueue, tiling.bufferNum, tile * sizeof(T));
        if constexpr (COMPUTE_IN_FLOAT) {
            pipe.InitBuffer(floatBuf, 2 * tile * sizeof(float));
        }
        pipe.InitBuffer(workBuf, (pitch / 64 + 1) * 2 * sizeof(float) + 32);
        pipe.InitBuffer(resultBuf, 32);
        if (cols <= SHORT_ROW) {
            pipe.InitBuffer(rowStatBuf, ROW_GROUP * sizeof(float));
            pipe.InitBuffer(broadcastBuf, ROW_GROUP * 8 * sizeof(float));
        } else if (pitch <= MID_ROW_PITCH) {
            uint32_t group = rowsPerTile < ROW_GROUP ? (rowsPerTile + 7) / 8 * 8 : ROW_GROUP;
            pipe.InitBuffer(rowStatBuf, group * sizeof(float));
            pipe.InitBuffer(broadcastBuf, group * 8 * sizeof(float));
            pipe.InitBuffer(foldBuf, group * SHORT_ROW * sizeof(float));
        }
    }
    __aicore__ inline void Process()
    {
        for (uint32_t done = 0; done < blockRows; done += rowsPerTile) {
            uint32_t rows = blockRows - done < rowsPerTile ? blockRows - done : rowsPerTile;
            CopyIn(rowStart + done, rows);
            Compute(rows);
            CopyOut(rowStart + done, rows);
        }
    }

private:
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
    __aicore__ inline void CopyIn(uint64_t row, uint32_t rows)
    {
        AscendC::LocalTensor<T> in = inQueue.AllocTensor<T>();
        LoadRows(in, xGm[row * cols], rows);
        // Mask rows (row + i) % Sq, in runs that end where the mask wraps.
        uint32_t m = static_cast<uint32_t>(row % maskRows);
        for (uint32_t i = 0; i < rows;) {
            uint32_t run = maskRows - m < rows - i ? maskRows - m : rows - i;
            LoadRows(in[tile + i * pitch], maskGm[static_cast<uint64_t>(m) * cols], run);
            i += run;
            m = 0;
        }
        inQueue.EnQue(in);
    }
    __aicore__ inline void WaitVectorForScalar()
    {
        event_t eventId = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(eventId);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(eventId);
    }
    // In place: row = exp(row - max(row)) / sum.
    __aicore__ inline void SoftmaxRow(const AscendC::LocalTensor<float>& row)
    {
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::LocalTensor<float> res = resultBuf.Get<float>();
        AscendC::ReduceMax(res, row, work, cols);
        WaitVectorForScalar();
        float rowMax = res.GetValue(0);
        AscendC::Adds(row, row, -rowMax, cols);
        AscendC::Exp(row, row, cols);
        AscendC::ReduceSum(res, row, work, cols);
        WaitVectorForScalar();
        float rowSum = res.GetValue(0);
        AscendC::Muls(row, row, 1.0f / rowSum, cols);
    }
    // Softmax of `rows` short rows (cols <= 64) at the float pitch, without the scalar unit.
    __aicore__ inline void SoftmaxShortRows(const AscendC::LocalTensor<float>& buf, uint32_t rows)
    {
        AscendC::LocalTensor<float> stat = rowStatBuf.Get<float>();
        AscendC::LocalTensor<float> spread = broadcastBuf.Get<float>();
        int32_t rowBlocks = static_cast<int32_t>(pitch / 8);
        // Repeat r works on row r; src1 re-reads block r (the row's statistic) 8 times.
        AscendC::BinaryRepeatParams perRow(1, 1, 0, static_cast<uint8_t>(rowBlocks), static_cast<uint8_t>(rowBlocks), 1);
        for (uint32_t g = 0; g < rows; g += ROW_GROUP) {
            uint32_t n = rows - g < ROW_GROUP ? rows - g : ROW_GROUP;
            AscendC::LocalTensor<float> base = buf[g * pitch];
            uint8_t spreadRepeats = static_cast<uint8_t>((n + 7) / 8);
            AscendC::WholeReduceMax(stat, base, static_cast<int32_t>(cols), static_cast<int32_t>(n), 1, 1, rowBlocks,
                                    AscendC::ReduceOrder::ORDER_ONLY_VALUE);
            AscendC::Brcb(spread, stat, spreadRepeats, AscendC::BrcbRepeatParams(1, 8));
            AscendC::Sub(base, base, spread, static_cast<uint64_t>(cols), static_cast<uint8_t>(n), perRow);
            AscendC::Exp(base, base, (n - 1) * pitch + cols);
            AscendC::WholeReduceSum(stat, base, static_cast<int32_t>(cols), static_cast<int32_t>(n), 1, 1, rowBlocks);
            AscendC::Brcb(spread, stat, spreadRepeats, AscendC::BrcbRepeatParams(1, 8));
            AscendC::Div(base, base, spread, static_cast<uint64_t>(cols), static_cast<uint8_t>(n), perRow);
        }
    }
    // fold[r] = op over the 64-element repeats of row r (Max or Add), for n rows at the pitch.
    template <bool IS_MAX>
    __aicore__ inline void FoldRows(const AscendC::LocalTensor<float>& fold, const AscendC::LocalTensor<float>& base,
                                    uint32_t n, uint8_t rowBlocks)
    {
        uint32_t repeats = (cols + SHORT_ROW - 1) / SHORT_ROW;
        uint32_t tail = cols - (repeats - 1) * SHORT_ROW;
        AscendC::Adds(fold, base, 0.0f, static_cast<uint64_t>(SHORT_ROW), static_cast<uint8_t>(n),
                      AscendC::UnaryRepeatParams(1, 1, 8, rowBlocks));
        AscendC::BinaryRepeatParams acrossRows(1, 1, 1, 8, 8, rowBlocks);
        for (uint32_t k = 1; k < repeats; k++) {
            uint64_t lanes = k + 1 == repeats ? tail : SHORT_ROW;
            if constexpr (IS_MAX) {
                AscendC::Max(fold, fold, base[k * SHORT_ROW], lanes, static_cast<uint8_t>(n), acrossRows);
            } else {
                AscendC::Add(fold, fold, base[k * SHORT_ROW], lanes, static_cast<uint8_t>(n), acrossRows);
            }
        }
    }
    // Softmax of `rows` rows of 65 to 2040 elements at the float pitch, without the scalar unit.
    __aicore__ inline void SoftmaxMidRows(const AscendC::LocalTensor<float>& buf, uint32_t rows)
    {
        AscendC::LocalTensor<float> stat = rowStatBuf.Get<float>();
        AscendC::LocalTensor<float> spread = broadcastBuf.Get<float>();
        AscendC::LocalTensor<float> fold = foldBuf.Get<float>();
        uint8_t rowBlocks = static_cast<uint8_t>(pitch / 8);
        uint32_t repeats = (cols + SHORT_ROW - 1) / SHORT_ROW;
        uint32_t tail = cols - (repeats - 1) * SHORT_ROW;
        uint32_t group = rowsPerTile < ROW_GROUP ? rowsPerTile : ROW_GROUP;
        // Repeat r works on row r; src1 re-reads block r (the row's statistic) 8 times.
        AscendC::BinaryRepeatParams perRow(1, 1, 0, rowBlocks, rowBlocks, 1);
        for (uint32_t g = 0; g < rows; g += group) {
            uint32_t n = rows - g < group ? rows - g : group;
            AscendC::LocalTensor<float> base = buf[g * pitch];
            uint8_t spreadRepeats = static_cast<uint8_t>((n + 7) / 8);
            FoldRows<true>(fold, base, n, rowBlocks);
            AscendC::WholeReduceMax(stat, fold, static_cast<int32_t>(SHORT_ROW), static_cast<int32_t>(n), 1, 1, 8,
                                    AscendC::ReduceOrder::ORDER_ONLY_VALUE);
            AscendC::Brcb(spread, stat, spreadRepeats, AscendC::BrcbRepeatParams(1, 8));
            for (uint32_t k = 0; k < repeats; k++) {
                uint64_t lanes = k + 1 == repeats ? tail : SHORT_ROW;
                AscendC::Sub(base[k * SHORT_ROW], base[k * SHORT_ROW], spread, lanes, static_cast<uint8_t>(n), perRow);
            }
            AscendC::Exp(base, base, (n - 1) * pitch + cols);
            FoldRows<false>(fold, base, n, rowBlocks);
            AscendC::WholeReduceSum(stat, fold, static_cast<int32_t>(SHORT_ROW), static_cast<int32_t>(n), 1, 1, 8);
            AscendC::Brcb(spread, stat, spreadRepeats, AscendC::BrcbRepeatParams(1, 8));
            for (uint32_t k = 0; k < repeats; k++) {
                uint64_t lanes = k + 1 == repeats ? tail : SHORT_ROW;
                AscendC::Div(base[k * SHORT_ROW], base[k * SHORT_ROW], spread, lanes, static_cast<uint8_t>(n), perRow);
            }
        }
    }
    __aicore__ inline void SoftmaxRows(const AscendC::LocalTensor<float>& buf, uint32_t rows)
    {
        if (cols <= SHORT_ROW) {
            SoftmaxShortRows(buf, rows);
            return;
        }
        if (pitch <= MID_ROW_PITCH) {
            SoftmaxMidRows(buf, rows);
            return;
        }
        for (uint32_t r = 0; r < rows; r++) {
            SoftmaxRow(buf[r * pitch]);
        }
    }
    __aicore__ inline void Compute(uint32_t rows)
    {
        AscendC::LocalTensor<T> in = inQueue.DeQue<T>();
        AscendC::LocalTensor<T> out = outQueue.AllocTensor<T>();
        uint32_t count = (rows - 1) * pitch + cols;
        if constexpr (COMPUTE_IN_FLOAT) {
            AscendC::LocalTensor<float> f = floatBuf.Get<float>();
            AscendC::Cast(f, in, AscendC::RoundMode::CAST_NONE, count);
            AscendC::Cast(f[tile], in[tile], AscendC::RoundMode::CAST_NONE, count);
            AscendC::Muls(f, f, scale, count);
            AscendC::Add(f, f, f[tile], count);
            SoftmaxRows(f, rows);
            AscendC::Cast(out, f, AscendC::RoundMode::CAST_RINT, count);
        } else {
            AscendC::Muls(out, in, scale, count);
            AscendC::Add(out, out, in[tile], count);
            SoftmaxRows(out, rows);
        }
        outQueue.EnQue<T>(out);
        inQueue.FreeTensor(in);
    }
    __aicore__ inline void CopyOut(uint64_t row, uint32_t rows)
    {
        AscendC::LocalTensor<T> out = outQueue.DeQue<T>();
        if (aligned) {
            AscendC::DataCopy(yGm[row * cols], out, rows * cols);
        } else {
            AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)),
                                                  0, 0, 0};
            AscendC::DataCopyPad(yGm[row * cols], out, copyParams);
        }
        outQueue.FreeTensor(out);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> floatBuf, workBuf, resultBuf, rowStatBuf, broadcastBuf, foldBuf;
    AscendC::GlobalTensor<T> xGm, maskGm, yGm;
    uint64_t rowStart = 0;
    uint32_t blockRows = 0;
    uint32_t cols = 0;
    uint32_t maskRows = 0;
    uint32_t pitch = 0;
    uint32_t rowsPerTile = 0;
    uint32_t tile = 0;
    float scale = 1.0f;
    bool aligned = false;
};

extern "C" __global__ __aicore__ void masked_softmax_custom(GM_ADDR x, GM_ADDR mask, GM_ADDR y, GM_ADDR workspace,
                                                            GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelMaskedSoftmax<DTYPE_X> op;
    op.Init(x, mask, y, tilingData);
    op.Process();
}
