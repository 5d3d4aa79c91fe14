// Kernel of GlobalAvgPoolCustom: y[n, c] = mean of x[n, c, :, :]. x is viewed as N*C
// rows of H*W values; each core owns a range of rows. Rows that fit in UB travel several
// per tile (one padded DataCopyPad, 32 B row pitch); longer rows stream in column chunks
// whose partial sums are added in float. half is summed in float (Cast), scaled by
// 1 / (H*W) and rounded once.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelGlobalAvgPool {
public:
    __aicore__ inline KernelGlobalAvgPool() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t cols, uint32_t colsAligned, uint32_t formerNum,
                                uint32_t formerRows, uint32_t tailRows, uint32_t rowsPerTile, uint32_t chunkLen, float scale)
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
        this->chunkLen = chunkLen;
        this->scale = scale;
        this->chunkNum = (cols + chunkLen - 1) / chunkLen;
        this->tileNum = (this->blockRows + rowsPerTile - 1) / rowsPerTile;

        xGm.SetGlobalBuffer((__gm__ T*)x + rowOffset * cols, static_cast<uint64_t>(this->blockRows) * cols);
        yGm.SetGlobalBuffer((__gm__ T*)y + rowOffset, this->blockRows);
        // Whole rows: a tile of rows; chunks: one chunk (colsAligned == chunkLen).
        uint32_t inRows = this->chunkNum == 1 ? rowsPerTile : 1;
        pipe.InitBuffer(inQueueX, BUFFER_NUM, inRows * colsAligned * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, AlignUp(rowsPerTile * sizeof(T)));
        pipe.InitBuffer(accBuf, AlignUp(rowsPerTile * sizeof(float)));
        if constexpr (!std::is_same_v<T, float>) {
            pipe.InitBuffer(calcBuf, colsAligned * sizeof(float));
        }
        pipe.InitBuffer(workBuf, colsAligned * sizeof(float));
        pipe.InitBuffer(reduceBuf, 32);
    }
    __aicore__ inline void Process()
    {
        for (uint32_t t = 0; t < this->tileNum; t++) {
            uint32_t rows = (t == this->tileNum - 1) ? this->blockRows - t * this->rowsPerTile : this->rowsPerTile;
            uint64_t firstRow = static_cast<uint64_t>(t) * this->rowsPerTile;
            AscendC::LocalTensor<float> acc = accBuf.Get<float>();
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
        AscendC::Muls(acc, acc, this->scale, rows);
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        if constexpr (std::is_same_v<T, float>) {
            AscendC::Adds(yLocal, acc, 0.0f, rows);
        } else {
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
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> yGm;
    uint32_t blockRows = 0;
    uint32_t cols = 0;
    uint32_t colsAligned = 0;
    uint32_t rowsPerTile = 0;
    uint32_t chunkLen = 0;
    uint32_t chunkNum = 0;
    uint32_t tileNum = 0;
    float scale = 1.0f;
};

extern "C" __global__ __aicore__ void global_avg_pool_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelGlobalAvgPool<DTYPE_X> op;
    op.Init(x, y, tilingData.cols, tilingData.colsAligned, tilingData.formerNum, tilingData.formerRows,
            tilingData.tailRows, tilingData.rowsPerTile, tilingData.chunkLen, tilingData.scale);
    op.Process();
}
