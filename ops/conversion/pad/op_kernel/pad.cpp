// Kernel of PadCustom: y[..., :] = [value x left, x[..., :], value x right] on the last
// axis. Each core owns a range of rows. The data never passes through the vector unit:
// a tile of rows goes GM -> UB -> GM through a bound VECIN->VECOUT queue and lands at
// column `left` of the output rows with one strided copy. The pads come from a UB block
// of rows filled with the value once per core, written with one strided copy per side
// and tile (GM destinations need no 32 B alignment, so any left pad works).
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// TilingT is the tiling class GET_TILING_DATA yields.
template <typename T, typename TilingT>
class KernelPad {
public:
    __aicore__ inline KernelPad() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const TilingT& tiling)
    {
        this->t = tiling;
        this->outCols = tiling.left + tiling.cols + tiling.right;
        uint32_t blockIdx = AscendC::GetBlockIdx();
        uint64_t rowOffset = 0;
        if (blockIdx < tiling.formerNum) {
            this->blockRows = tiling.formerRows;
            rowOffset = static_cast<uint64_t>(tiling.formerRows) * blockIdx;
        } else {
            this->blockRows = tiling.tailRows;
            rowOffset = static_cast<uint64_t>(tiling.formerRows) * tiling.formerNum +
                        static_cast<uint64_t>(tiling.tailRows) * (blockIdx - tiling.formerNum);
        }
        xGm.SetGlobalBuffer((__gm__ T*)x + rowOffset * tiling.cols, static_cast<uint64_t>(this->blockRows) * tiling.cols);
        yGm.SetGlobalBuffer((__gm__ T*)y + rowOffset * this->outCols,
                            static_cast<uint64_t>(this->blockRows) * this->outCols);
        pipe.InitBuffer(dataQueue, BUFFER_NUM, tiling.rowsPerTile * tiling.colTile * sizeof(T));
        pipe.InitBuffer(padBuf, tiling.rowsPerTile * tiling.padChunk * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        FillPadBlock();
        for (uint32_t r0 = 0; r0 < this->blockRows; r0 += t.rowsPerTile) {
            uint32_t rows = this->blockRows - r0 < t.rowsPerTile ? this->blockRows - r0 : t.rowsPerTile;
            uint64_t outRow = static_cast<uint64_t>(r0) * this->outCols;
            WritePad(outRow, rows, t.left);
            for (uint32_t c0 = 0; c0 < t.cols; c0 += t.colTile) {
                uint32_t len = t.cols - c0 < t.colTile ? t.cols - c0 : t.colTile;
                CopyIn(static_cast<uint64_t>(r0) * t.cols + c0, rows, len);
                CopyOut(outRow + t.left + c0, rows, len);
            }
            WritePad(outRow + t.left + t.cols, rows, t.right);
        }
    }

private:
    __aicore__ inline void FillPadBlock()
    {
        if (t.left == 0 && t.right == 0) {
            return;
        }
        AscendC::LocalTensor<T> pad = padBuf.Get<T>();
        AscendC::Duplicate(pad, static_cast<T>(t.value), t.rowsPerTile * t.padChunk);
        // The pad block is read by MTE3 copies that no queue orders after this write.
        AscendC::TEventID eventId = pipe.FetchEventID<AscendC::HardEvent::V_MTE3>();
        AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(eventId);
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(eventId);
    }
    // Gap, in 32 B blocks, between rows of `len` elements laid out at a pitch of `pitch`.
    __aicore__ inline uint32_t UbGap(uint32_t pitch, uint32_t len) const
    {
        return (pitch * sizeof(T) - (len * sizeof(T) + 31) / 32 * 32) / 32;
    }
    // `width` pad values at the same column of `rows` output rows starting at outOffset.
    __aicore__ inline void WritePad(uint64_t outOffset, uint32_t rows, uint32_t width)
    {
        AscendC::LocalTensor<T> pad = padBuf.Get<T>();
        for (uint32_t p0 = 0; p0 < width; p0 += t.padChunk) {
            uint32_t len = width - p0 < t.padChunk ? width - p0 : t.padChunk;
            AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(len * sizeof(T)),
                                                  UbGap(t.padChunk, len),
                                                  static_cast<uint32_t>((this->outCols - len) * sizeof(T)), 0};
            AscendC::DataCopyPad(yGm[outOffset + p0], pad, copyParams);
        }
    }
    __aicore__ inline void CopyIn(uint64_t inOffset, uint32_t rows, uint32_t len)
    {
        AscendC::LocalTensor<T> data = dataQueue.AllocTensor<T>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(len * sizeof(T)),
                                              static_cast<uint32_t>((t.cols - len) * sizeof(T)),
                                              UbGap(t.colTile, len), 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(data, xGm[inOffset], copyParams, padParams);
        dataQueue.EnQue(data);
    }
    __aicore__ inline void CopyOut(uint64_t outOffset, uint32_t rows, uint32_t len)
    {
        AscendC::LocalTensor<T> data = dataQueue.DeQue<T>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(len * sizeof(T)),
                                              UbGap(t.colTile, len),
                                              static_cast<uint32_t>((this->outCols - len) * sizeof(T)), 0};
        AscendC::DataCopyPad(yGm[outOffset], data, copyParams);
        dataQueue.FreeTensor(data);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQueBind<AscendC::QuePosition::VECIN, AscendC::QuePosition::VECOUT, BUFFER_NUM> dataQueue;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> padBuf;
    AscendC::GlobalTensor<T> xGm, yGm;
    TilingT t;
    uint32_t blockRows = 0;
    uint32_t outCols = 0;
};

extern "C" __global__ __aicore__ void pad_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelPad<DTYPE_X, decltype(tilingData)> op;
    op.Init(x, y, tilingData);
    op.Process();
}
