// Kernel of ReduceMeanCustom (expert): y[r] = mean of row r of x over the last axis. Each
// core owns a range of rows. Rows that fit in UB travel several per tile (one padded
// DataCopyPad, 32 B row pitch); longer rows stream in column chunks whose partial
// sums are added in float; few long rows are split across cores. The sums are scaled by
// 1/cols (a multiply by the reciprocal, no Div) on their way to the output tile, before
// the single rounding; half/bf16 are summed in float (Cast).
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t PART_FLOATS = 64;   // float lanes of one repeat: partial sums per row
constexpr uint32_t ROWS_PER_OP = 248;  // rows per strided op: <= 255 repeats, 32 B-aligned result offsets

template <typename T>
class KernelReduceMean {
public:
    __aicore__ inline KernelReduceMean() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t cols, uint32_t colsAligned, uint32_t formerNum,
                                uint32_t formerRows, uint32_t tailRows, uint32_t rowsPerTile, uint32_t chunkLen,
                                uint32_t vecRows, uint32_t splits, uint32_t segLen, GM_ADDR workspace)
    {
        uint32_t blockIdx = AscendC::GetBlockIdx();
        if (splits > 1) {
            InitSplit(x, y, cols, chunkLen, splits, segLen, workspace, blockIdx);
            return;
        }
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
        this->chunkLen = chunkLen;
        this->vecRows = vecRows;
        this->chunkNum = (cols + chunkLen - 1) / chunkLen;
        this->tileNum = (this->blockRows + rowsPerTile - 1) / rowsPerTile;

        xGm.SetGlobalBuffer((__gm__ T*)x + rowOffset * cols, static_cast<uint64_t>(this->blockRows) * cols);
        yGm.SetGlobalBuffer((__gm__ T*)y + rowOffset, this->blockRows);
        // Whole rows: a tile of rows; chunks: one chunk (colsAligned == chunkLen).
        uint32_t inRows = this->chunkNum == 1 ? rowsPerTile : 1;
        pipe.InitBuffer(inQueueX, BUFFER_NUM, inRows * colsAligned * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, AlignUp(rowsPerTile * sizeof(T)));
        pipe.InitBuffer(accBuf, AlignUp(rowsPerTile * sizeof(float)));
        if (vecRows != 0) {
            // A float copy of the whole tile (16-bit inputs) and 64 partial sums per row.
            if constexpr (!std::is_same_v<T, float>) {
                pipe.InitBuffer(calcBuf, rowsPerTile * colsAligned * sizeof(float));
            }
            pipe.InitBuffer(workBuf, rowsPerTile * PART_FLOATS * sizeof(float));
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
        if (this->splits > 1) {
            ProcessSplit();
            return;
        }
        for (uint32_t t = 0; t < this->tileNum; t++) {
            uint32_t rows = (t == this->tileNum - 1) ? this->blockRows - t * this->rowsPerTile : this->rowsPerTile;
            uint64_t firstRow = static_cast<uint64_t>(t) * this->rowsPerTile;
            AscendC::LocalTensor<float> acc = accBuf.Get<float>();
            if (this->vecRows != 0) {
                CopyIn(firstRow * this->cols, rows, this->cols);
                AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
                SumRows(acc, xLocal, rows);
                inQueueX.FreeTensor(xLocal);
                WriteResults(acc, t, rows);
                continue;
            }
            if (this->chunkNum == 1) {
                CopyIn(firstRow * this->cols, rows, this->cols);
                AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
                for (uint32_t r = 0; r < rows; r++) {
                    acc.SetValue(r, SumOf(xLocal[r * this->colsAligned], this->cols));
                }
                inQueueX.FreeTensor(xLocal);
            } else {
                for (uint32_t r = 0; r < rows; r++) {
                    float total = 0.0f;
                    for (uint32_t c = 0; c < this->chunkNum; c++) {
                        uint32_t len = c == this->chunkNum - 1 ? this->cols - c * this->chunkLen : this->chunkLen;
                        CopyIn((firstRow + r) * this->cols + static_cast<uint64_t>(c) * this->chunkLen, 1, len);
                        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
                        total += SumOf(xLocal, len);
                        inQueueX.FreeTensor(xLocal);
                    }
                    acc.SetValue(r, total);
                }
            }
            WaitScalarForVector();
            WriteResults(acc, t, rows);
        }
    }

private:
    // expert: split rows. Block b sums segment b % splits of row b / splits.
    __aicore__ inline void InitSplit(GM_ADDR x, GM_ADDR y, uint32_t cols, uint32_t chunkLen, uint32_t splits,
                                     uint32_t segLen, GM_ADDR workspace, uint32_t blockIdx)
    {
        this->cols = cols;  // the mean's divisor
        this->splits = splits;
        this->chunkLen = chunkLen;
        this->blockIdx = blockIdx;
        this->row = blockIdx / splits;
        this->seg = blockIdx % splits;
        uint64_t start = static_cast<uint64_t>(this->seg) * segLen;
        this->segElems = cols - start < segLen ? static_cast<uint32_t>(cols - start) : segLen;
        xGm.SetGlobalBuffer((__gm__ T*)x + static_cast<uint64_t>(this->row) * cols + start, this->segElems);
        yGm.SetGlobalBuffer((__gm__ T*)y + this->row, 1);
        wsGm.SetGlobalBuffer((__gm__ float*)workspace, static_cast<uint64_t>(this->row + 1) * splits * 8);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, chunkLen * sizeof(T));
        pipe.InitBuffer(accBuf, chunkLen * sizeof(float));
        if constexpr (!std::is_same_v<T, float>) {
            pipe.InitBuffer(calcBuf, chunkLen * sizeof(float));
        }
        pipe.InitBuffer(workBuf, AlignUp(((chunkLen > splits * 8 ? chunkLen : splits * 8) + 63) / 64 * sizeof(float)));
        pipe.InitBuffer(partOutQueue, 1, 32);
        pipe.InitBuffer(partInQueue, 1, AlignUp(splits * 8 * sizeof(float)));
        pipe.InitBuffer(outQueueY, 1, 32);
    }
    __aicore__ inline void ProcessSplit()
    {
        uint32_t chunks = (this->segElems + this->chunkLen - 1) / this->chunkLen;
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        AscendC::Duplicate(acc, 0.0f, this->chunkLen);
        // The next chunk's copy is issued before this chunk's adds: MTE2 streams.
        CopyIn(0, 1, SplitChunk(0, chunks));
        for (uint32_t c = 0; c < chunks; c++) {
            uint32_t len = SplitChunk(c, chunks);
            if (c + 1 < chunks) {
                CopyIn(static_cast<uint64_t>(c + 1) * this->chunkLen, 1, SplitChunk(c + 1, chunks));
            }
            AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
            if constexpr (std::is_same_v<T, float>) {
                AscendC::Add(acc, acc, xLocal, len);
            } else {
                AscendC::LocalTensor<float> calc = calcBuf.Get<float>();
                AscendC::Cast(calc, xLocal, AscendC::RoundMode::CAST_NONE, len);
                AscendC::Add(acc, acc, calc, len);
            }
            inQueueX.FreeTensor(xLocal);
        }
        // The partial: element 0 of a zeroed 32 B workspace slot.
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::LocalTensor<float> part = partOutQueue.AllocTensor<float>();
        AscendC::Duplicate(part, 0.0f, 8);
        uint32_t accLen = this->segElems < this->chunkLen ? this->segElems : this->chunkLen;
        AscendC::ReduceSum(part, acc, work, accLen);
        partOutQueue.EnQue(part);
        part = partOutQueue.DeQue<float>();
        AscendC::DataCopy(wsGm[static_cast<uint64_t>(this->blockIdx) * 8], part, 8);
        partOutQueue.FreeTensor(part);
        // Every segment's partial is in the workspace before the row's first core adds them.
        AscendC::SyncAll();
        if (this->seg != 0) {
            return;
        }
        AscendC::LocalTensor<float> parts = partInQueue.AllocTensor<float>();
        AscendC::DataCopy(parts, wsGm[static_cast<uint64_t>(this->row) * this->splits * 8], this->splits * 8);
        partInQueue.EnQue(parts);
        parts = partInQueue.DeQue<float>();
        AscendC::LocalTensor<float> total = accBuf.Get<float>();
        AscendC::ReduceSum(total, parts, work, this->splits * 8);
        partInQueue.FreeTensor(parts);
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        if constexpr (std::is_same_v<T, float>) {
            AscendC::Muls(yLocal, total, 1.0f / static_cast<float>(cols), 1);
        } else {
            AscendC::Muls(total, total, 1.0f / static_cast<float>(cols), 1);
            AscendC::Cast(yLocal, total, AscendC::RoundMode::CAST_RINT, 1);
        }
        outQueueY.EnQue<T>(yLocal);
        yLocal = outQueueY.DeQue<T>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPad(yGm, yLocal, copyParams);
        outQueueY.FreeTensor(yLocal);
    }
    __aicore__ inline uint32_t SplitChunk(uint32_t c, uint32_t chunks) const
    {
        return c == chunks - 1 ? this->segElems - c * this->chunkLen : this->chunkLen;
    }
    __aicore__ inline uint32_t AlignUp(uint32_t bytes) const { return (bytes + 31) / 32 * 32; }
    // `rows` blocks of `len` elements from GM offset `offset`, each on a 32 B UB boundary.
    __aicore__ inline void CopyIn(uint64_t offset, uint32_t rows, uint32_t len)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(len * sizeof(T)), 0,
                                              0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
        inQueueX.EnQue(xLocal);
    }
    // expert: vectorised row sums. acc[r] = sum of row r for a tile of rows at pitch
    // colsAligned: strided Adds fold every 64-column slice of all rows into 64 partial
    // sums per row (one instruction per slice, rows as repeats), then one WholeReduceSum
    // gives every row's total. No per-row ReduceSum, GetValue or V->S / S->V syncs.
    __aicore__ inline void SumRows(const AscendC::LocalTensor<float>& acc, const AscendC::LocalTensor<T>& xLocal,
                                   uint32_t rows)
    {
        AscendC::LocalTensor<float> xf;
        if constexpr (std::is_same_v<T, float>) {
            xf = xLocal;
        } else {
            xf = calcBuf.Get<float>();
            AscendC::Cast(xf, xLocal, AscendC::RoundMode::CAST_NONE, rows * this->colsAligned);
        }
        AscendC::LocalTensor<float> part = workBuf.Get<float>();
        uint8_t pitchBlocks = static_cast<uint8_t>(this->colsAligned * sizeof(float) / 32);
        uint32_t lanes0 = this->cols < PART_FLOATS ? this->cols : PART_FLOATS;
        for (uint32_t r0 = 0; r0 < rows; r0 += ROWS_PER_OP) {
            uint8_t reps = static_cast<uint8_t>(rows - r0 < ROWS_PER_OP ? rows - r0 : ROWS_PER_OP);
            AscendC::LocalTensor<float> p = part[r0 * PART_FLOATS];
            AscendC::LocalTensor<float> src = xf[r0 * this->colsAligned];
            AscendC::Adds(p, src, 0.0f, lanes0, reps, AscendC::UnaryRepeatParams{1, 1, 8, pitchBlocks});
            for (uint32_t c = PART_FLOATS; c < this->cols; c += PART_FLOATS) {
                uint64_t lanes = this->cols - c < PART_FLOATS ? this->cols - c : PART_FLOATS;
                AscendC::Add(p, p, src[c], lanes, reps, AscendC::BinaryRepeatParams{1, 1, 1, 8, 8, pitchBlocks});
            }
            AscendC::WholeReduceSum(acc[r0], p, static_cast<int32_t>(lanes0), reps, 1, 1, 8);
        }
    }
    __aicore__ inline float SumOf(const AscendC::LocalTensor<T>& src, uint32_t len)
    {
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::LocalTensor<float> result = reduceBuf.Get<float>();
        if constexpr (std::is_same_v<T, float>) {
            AscendC::ReduceSum(result, src, work, len);
        } else {
            AscendC::LocalTensor<float> calc = calcBuf.Get<float>();
            AscendC::Cast(calc, src, AscendC::RoundMode::CAST_NONE, len);
            AscendC::ReduceSum(result, calc, work, len);
        }
        WaitVectorForScalar();
        return result.GetValue(0);
    }
    __aicore__ inline void WriteResults(const AscendC::LocalTensor<float>& acc, uint32_t tile, uint32_t rows)
    {
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        // The mean: the float sums times 1/cols, written straight into the output tile (float)
        // or scaled in place before the one rounding cast (16-bit).
        if constexpr (std::is_same_v<T, float>) {
            AscendC::Muls(yLocal, acc, 1.0f / static_cast<float>(cols), rows);
        } else {
            AscendC::Muls(acc, acc, 1.0f / static_cast<float>(cols), rows);
            AscendC::Cast(yLocal, acc, AscendC::RoundMode::CAST_RINT, rows);
        }
        outQueueY.EnQue<T>(yLocal);
        yLocal = outQueueY.DeQue<T>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(rows * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[static_cast<uint64_t>(tile) * this->rowsPerTile], yLocal, copyParams);
        outQueueY.FreeTensor(yLocal);
    }

    // The scalar unit reads vector results only after the vector pipe has written them.
    __aicore__ inline void WaitVectorForScalar()
    {
        event_t eventId = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(eventId);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(eventId);
    }
    // Vector instructions read scalar-written UB only after the scalar writes land.
    __aicore__ inline void WaitScalarForVector()
    {
        event_t eventId = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::S_V));
        AscendC::SetFlag<AscendC::HardEvent::S_V>(eventId);
        AscendC::WaitFlag<AscendC::HardEvent::S_V>(eventId);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> accBuf, calcBuf, workBuf, reduceBuf;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> partOutQueue;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> partInQueue;
    AscendC::GlobalTensor<float> wsGm;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> yGm;
    uint32_t blockRows = 0;
    uint32_t cols = 0;
    uint32_t colsAligned = 0;
    uint32_t rowsPerTile = 0;
    uint32_t chunkLen = 0;
    uint32_t chunkNum = 0;
    uint32_t tileNum = 0;
    uint32_t vecRows = 0;
    uint32_t splits = 1;
    uint32_t blockIdx = 0;
    uint32_t row = 0;
    uint32_t seg = 0;
    uint32_t segElems = 0;
};

extern "C" __global__ __aicore__ void reduce_mean_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelReduceMean<DTYPE_X> op;
    op.Init(x, y, tilingData.cols, tilingData.colsAligned, tilingData.formerNum, tilingData.formerRows,
            tilingData.tailRows, tilingData.rowsPerTile, tilingData.chunkLen, tilingData.vecRows, tilingData.splits,
            tilingData.segLen, AscendC::GetUserWorkspace(workspace));
    op.Process();
}
