// Kernel of MaskedFillCustom: y = mask ? value : x, the bool mask covering x's trailing axes and
// broadcast over its leading ones (x seen as [outer, inner], inner = the mask's elements).
// Blocks form a grid of mask column ranges by row ranges. For each column tile of its range a
// block copies the mask in once, widens it to half (Cast uint8 -> half) and turns it into the
// bit mask Select consumes (Compares == 0: keep x); that bit mask then serves every row of the
// block's range. When whole mask rows fit a tile, a tile holds rowsPerTile rows of x on a 32 B
// pitch and the mask row is replicated to the same pitch once (log2 doubling Adds), so one
// DataCopyPad, one Select and one DataCopyPad handle many rows. Tiles stream through
// double-buffered queues (CopyIn on MTE2, Select on V, CopyOut on MTE3 overlap across tiles).
// Select only moves bits, so bf16 runs as a half view.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t UNIT = 256;  // elements: Compares on half works in whole 256 B repeats

template <typename T>
class KernelMaskedFill {
    using S = std::conditional_t<sizeof(T) == 2, half, float>;  // the type Select is issued on

public:
    __aicore__ inline KernelMaskedFill() {}
    template <typename Tiling>
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR mask, GM_ADDR y, const Tiling& tiling)
    {
        uint32_t blockIdx = AscendC::GetBlockIdx();
        uint32_t colPart = blockIdx % tiling.colParts;
        uint32_t rowPart = blockIdx / tiling.colParts;
        inner = tiling.inner;
        uint64_t unitStart = static_cast<uint64_t>(tiling.colUnits) * colPart +
                             (colPart < tiling.colFormerNum ? colPart : tiling.colFormerNum);
        uint64_t units = tiling.colUnits + (colPart < tiling.colFormerNum ? 1 : 0);
        colStart = static_cast<uint32_t>(unitStart * UNIT < inner ? unitStart * UNIT : inner);
        uint64_t colEndUnits = (unitStart + units) * UNIT;
        colEnd = static_cast<uint32_t>(colEndUnits < inner ? colEndUnits : inner);
        rowStart = static_cast<uint64_t>(tiling.rowCount) * rowPart +
                   (rowPart < tiling.rowFormerNum ? rowPart : tiling.rowFormerNum);
        rowEnd = rowStart + tiling.rowCount + (rowPart < tiling.rowFormerNum ? 1 : 0);
        rowEnd = rowEnd < tiling.outer ? rowEnd : tiling.outer;
        tileCols = tiling.tileCols;
        rowsPerTile = tiling.rowsPerTile;
        pitch = tiling.pitch;
        uint32_t tileAlloc = (rowsPerTile * pitch + UNIT - 1) / UNIT * UNIT;

        xGm.SetGlobalBuffer((__gm__ T*)x);
        maskGm.SetGlobalBuffer((__gm__ uint8_t*)mask);
        yGm.SetGlobalBuffer((__gm__ T*)y);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileAlloc * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileAlloc * sizeof(T));
        pipe.InitBuffer(maskQueue, 1, pitch);
        pipe.InitBuffer(maskHalfBuf, tileAlloc * sizeof(half));
        pipe.InitBuffer(bitsBuf, tileAlloc / 8);
        pipe.InitBuffer(valueBuf, 32);
        // The fill value in the bits of the Select type.
        if constexpr (std::is_same_v<T, float>) {
            fillValue = tiling.value;
        } else {
            AscendC::LocalTensor<T> v = valueBuf.Get<T>();
            v.SetValue(0, static_cast<T>(tiling.value));
            fillValue = v.template ReinterpretCast<S>().GetValue(0);
        }
    }
    __aicore__ inline void Process()
    {
        if (colStart >= colEnd || rowStart >= rowEnd) {
            return;
        }
        for (uint32_t c0 = colStart; c0 < colEnd; c0 += tileCols) {
            uint32_t len = colEnd - c0 < tileCols ? colEnd - c0 : tileCols;
            BuildMask(c0, len);
            for (uint64_t r0 = rowStart; r0 < rowEnd; r0 += rowsPerTile) {
                uint32_t rows = rowEnd - r0 < rowsPerTile ? static_cast<uint32_t>(rowEnd - r0) : rowsPerTile;
                CopyIn(r0, rows, c0, len);
                Compute(rows);
                CopyOut(r0, rows, c0, len);
            }
        }
    }

private:
    // Bit mask of mask[c0, c0 + len): 1 keeps x, 0 takes the value; replicated to rowsPerTile
    // rows of `pitch` elements.
    __aicore__ inline void BuildMask(uint32_t c0, uint32_t len)
    {
        AscendC::LocalTensor<uint8_t> m = maskQueue.AllocTensor<uint8_t>();
        AscendC::DataCopyExtParams copyParams{1, len, 0, 0, 0};
        AscendC::DataCopyPadExtParams<uint8_t> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(m, maskGm[c0], copyParams, padParams);
        maskQueue.EnQue(m);
        m = maskQueue.DeQue<uint8_t>();
        AscendC::LocalTensor<half> maskHalf = maskHalfBuf.Get<half>();
        uint32_t rowElems = (len + 31) / 32 * 32;
        AscendC::Cast(maskHalf, m, AscendC::RoundMode::CAST_NONE, rowElems);
        maskQueue.FreeTensor(m);
        for (uint32_t r = 1; r < rowsPerTile; r *= 2) {
            uint32_t n = rowsPerTile - r < r ? rowsPerTile - r : r;
            AscendC::Adds(maskHalf[r * pitch], maskHalf, static_cast<half>(0.0f), n * pitch);
        }
        AscendC::LocalTensor<uint8_t> bits = bitsBuf.Get<uint8_t>();
        uint32_t count = (rowsPerTile * pitch + UNIT - 1) / UNIT * UNIT;
        AscendC::Compares(bits, maskHalf, static_cast<half>(0.0f), AscendC::CMPMODE::EQ, count);
    }
    __aicore__ inline void CopyIn(uint64_t r0, uint32_t rows, uint32_t c0, uint32_t len)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        uint32_t rowBytes = len * sizeof(T);
        uint32_t gapBlocks = (pitch * sizeof(T) - (rowBytes + 31) / 32 * 32) / 32;
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), rowBytes,
                                              static_cast<uint32_t>((inner - len) * sizeof(T)), gapBlocks, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(xLocal, xGm[r0 * inner + c0], copyParams, padParams);
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void Compute(uint32_t rows)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        AscendC::LocalTensor<uint8_t> bits = bitsBuf.Get<uint8_t>();
        // Whole units; lanes past the rows' data select leftover UB bytes and are never copied out.
        uint32_t count = (rows * pitch + UNIT - 1) / UNIT * UNIT;
        AscendC::Select(yLocal.template ReinterpretCast<S>(), bits, xLocal.template ReinterpretCast<S>(), fillValue,
                        AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, count);
        outQueueY.EnQue<T>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint64_t r0, uint32_t rows, uint32_t c0, uint32_t len)
    {
        AscendC::LocalTensor<T> yLocal = outQueueY.DeQue<T>();
        uint32_t rowBytes = len * sizeof(T);
        uint32_t gapBlocks = (pitch * sizeof(T) - (rowBytes + 31) / 32 * 32) / 32;
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), rowBytes, gapBlocks,
                                              static_cast<uint32_t>((inner - len) * sizeof(T)), 0};
        AscendC::DataCopyPad(yGm[r0 * inner + c0], yLocal, copyParams);
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> maskQueue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> maskHalfBuf, bitsBuf, valueBuf;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<uint8_t> maskGm;
    AscendC::GlobalTensor<T> yGm;
    S fillValue = 0;
    uint64_t rowStart = 0;
    uint64_t rowEnd = 0;
    uint32_t inner = 0;
    uint32_t colStart = 0;
    uint32_t colEnd = 0;
    uint32_t tileCols = 0;
    uint32_t rowsPerTile = 1;
    uint32_t pitch = 0;
};

extern "C" __global__ __aicore__ void masked_fill_custom(GM_ADDR x, GM_ADDR mask, GM_ADDR y, GM_ADDR workspace,
                                                         GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelMaskedFill<DTYPE_X> op;
    op.Init(x, mask, y, tilingData);
    op.Process();
}
