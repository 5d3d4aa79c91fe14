// Kernel of ReduceSumInnerCustom: y[a, b] = sum over r of x[a, r, b], the reduced axis
// not being the last. A work item is one (a, chunk of B) pair; each core owns a range of
// items. Rows of the chunk (one per r) arrive several per tile through a strided
// DataCopyPad (32 B row pitch in UB, double-buffered), are folded pairwise with vector
// adds of whole half-tiles until one row remains, and that row is added to a float
// accumulator of the chunk. Short reductions (up to IN_ORDER_MAX_ROWS rows) instead add
// the rows to the accumulator one after another in the order of r: the sum a float
// computation makes, rounding for rounding. There a pairwise order is no more accurate,
// only different, and sums that cancel to near zero would carry other rounding errors
// than a same-precision CPU sum (sometimes twice as many). half/bf16 are summed in float
// (Cast) and rounded once.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t IN_ORDER_MAX_ROWS = 16;  // reductions this short are summed in the order of r

template <typename T>
class KernelReduceSumInner {
    static constexpr bool IS_FLOAT = std::is_same_v<T, float>;
    static constexpr uint32_t ALIGN_NUM = 32 / sizeof(T);

public:
    __aicore__ inline KernelReduceSumInner() {}
    template <typename Tiling>
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const Tiling& t)
    {
        uint32_t blockIdx = AscendC::GetBlockIdx();
        if (blockIdx < t.formerNum) {
            itemCount = t.formerItems;
            firstItem = t.formerItems * blockIdx;
        } else {
            itemCount = t.tailItems;
            firstItem = t.formerItems * t.formerNum + t.tailItems * (blockIdx - t.formerNum);
        }
        reduceLen = t.reduceLen;
        innerLen = t.innerLen;
        chunkLen = t.chunkLen;
        chunkPitch = t.chunkPitch;
        chunkNum = t.chunkNum;
        rowsPerTile = t.rowsPerTile;

        xGm.SetGlobalBuffer((__gm__ T*)x);
        yGm.SetGlobalBuffer((__gm__ T*)y);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, rowsPerTile * chunkPitch * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, chunkPitch * sizeof(T));
        pipe.InitBuffer(accBuf, chunkPitch * sizeof(float));
        if constexpr (!IS_FLOAT) {
            pipe.InitBuffer(calcBuf, rowsPerTile * chunkPitch * sizeof(float));
        }
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < itemCount; i++) {
            uint32_t item = firstItem + i;
            uint64_t a = item / chunkNum;
            uint64_t b0 = static_cast<uint64_t>(item % chunkNum) * chunkLen;
            uint32_t len = innerLen - b0 < chunkLen ? static_cast<uint32_t>(innerLen - b0) : chunkLen;
            AscendC::LocalTensor<float> acc = accBuf.Get<float>();
            AscendC::Duplicate(acc, 0.0f, len);
            uint64_t base = a * reduceLen * innerLen + b0;
            for (uint32_t r = 0; r < reduceLen; r += rowsPerTile) {
                uint32_t rows = reduceLen - r < rowsPerTile ? reduceLen - r : rowsPerTile;
                CopyIn(base + static_cast<uint64_t>(r) * innerLen, rows, len);
                Accumulate(acc, rows, len);
            }
            CopyOut(acc, a * innerLen + b0, len);
        }
    }

private:
    __aicore__ inline static uint32_t AlignUp(uint32_t n) { return (n + ALIGN_NUM - 1) / ALIGN_NUM * ALIGN_NUM; }
    // `rows` rows of `len` elements, innerLen apart in GM, chunkPitch apart in UB.
    __aicore__ inline void CopyIn(uint64_t offset, uint32_t rows, uint32_t len)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(len * sizeof(T)),
                                              static_cast<uint32_t>((innerLen - len) * sizeof(T)),
                                              (chunkPitch - AlignUp(len)) / ALIGN_NUM, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
        inQueueX.EnQue(xLocal);
    }
    // acc += the tile's rows: in the order of r for short reductions, else by pairwise
    // folding (the last `half` rows are added onto the first `half`, one vector add over
    // whole rows, pitch included, until row 0 holds the tile's column sums).
    __aicore__ inline void AddTile(const AscendC::LocalTensor<float>& acc, const AscendC::LocalTensor<float>& tile,
                                   uint32_t rows, uint32_t len)
    {
        if (reduceLen <= IN_ORDER_MAX_ROWS) {
            for (uint32_t r = 0; r < rows; r++) {
                AscendC::Add(acc, acc, tile[r * chunkPitch], len);
            }
            return;
        }
        FoldRows(tile, rows);
        AscendC::Add(acc, acc, tile, len);
    }
    __aicore__ inline void FoldRows(const AscendC::LocalTensor<float>& tile, uint32_t rows)
    {
        while (rows > 1) {
            uint32_t half = rows / 2;
            AscendC::Add(tile, tile, tile[(rows - half) * chunkPitch], half * chunkPitch);
            rows -= half;
        }
    }
    __aicore__ inline void Accumulate(const AscendC::LocalTensor<float>& acc, uint32_t rows, uint32_t len)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        if constexpr (IS_FLOAT) {
            AddTile(acc, xLocal, rows, len);
        } else {
            AscendC::LocalTensor<float> tile = calcBuf.Get<float>();
            AscendC::Cast(tile, xLocal, AscendC::RoundMode::CAST_NONE, rows * chunkPitch);
            AddTile(acc, tile, rows, len);
        }
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(const AscendC::LocalTensor<float>& acc, uint64_t offset, uint32_t len)
    {
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        if constexpr (IS_FLOAT) {
            AscendC::Adds(yLocal, acc, 0.0f, len);
        } else {
            AscendC::Cast(yLocal, acc, AscendC::RoundMode::CAST_RINT, len);
        }
        outQueueY.EnQue<T>(yLocal);
        yLocal = outQueueY.DeQue<T>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[offset], yLocal, copyParams);
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> accBuf, calcBuf;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> yGm;
    uint32_t itemCount = 0;
    uint32_t firstItem = 0;
    uint32_t reduceLen = 0;
    uint32_t innerLen = 0;
    uint32_t chunkLen = 0;
    uint32_t chunkPitch = 0;
    uint32_t chunkNum = 0;
    uint32_t rowsPerTile = 0;
};

extern "C" __global__ __aicore__ void reduce_sum_inner_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                              GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelReduceSumInner<DTYPE_X> op;
    op.Init(x, y, tilingData);
    op.Process();
}
