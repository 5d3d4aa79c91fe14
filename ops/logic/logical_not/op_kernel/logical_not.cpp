// Kernel of LogicalNotCustom: y = !x on a bool tensor (one byte per element, 0 or 1).
// Each core takes a contiguous slice of the flattened tensor and streams it through UB
// in tiles with double buffering (CopyIn on MTE2, Compute on V and CopyOut on MTE3
// overlap across tiles).
// Compute: the vector unit has no byte-wide logic, so the tile is viewed as uint16
// pairs: Not flips every bit and Ands with 0x0101 keeps the low bit of each byte, which
// turns 0/1 bytes into 1/0 two elements per lane.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint16_t LOW_BIT_OF_EACH_BYTE = 0x0101;

class KernelLogicalNot {
public:
    __aicore__ inline KernelLogicalNot() {}
    template <typename Tiling>
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const Tiling& tiling)
    {
        uint32_t blockIdx = AscendC::GetBlockIdx();
        uint64_t offset = 0;
        if (blockIdx < tiling.formerNum) {
            blockLength = tiling.formerLength;
            offset = static_cast<uint64_t>(tiling.formerLength) * blockIdx;
        } else {
            blockLength = tiling.tailLength;
            offset = static_cast<uint64_t>(tiling.formerLength) * tiling.formerNum +
                     static_cast<uint64_t>(tiling.tailLength) * (blockIdx - tiling.formerNum);
        }
        // Shares are whole units; the last core stops at the end of the tensor.
        if (offset + blockLength > tiling.totalLength) {
            blockLength = tiling.totalLength - offset;
        }
        tileLength = tiling.tileLength;
        tileNum = (blockLength + tileLength - 1) / tileLength;
        lastTileLength = blockLength - (tileNum - 1) * tileLength;

        xGm.SetGlobalBuffer((__gm__ uint8_t*)x + offset, blockLength);
        yGm.SetGlobalBuffer((__gm__ uint8_t*)y + offset, blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength);
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength);
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < tileNum; i++) {
            CopyIn(i);
            Compute(i);
            CopyOut(i);
        }
    }

private:
    __aicore__ inline uint32_t TileElems(uint32_t progress) const
    {
        return progress == tileNum - 1 ? lastTileLength : tileLength;
    }
    __aicore__ inline void CopyIn(uint32_t progress)
    {
        AscendC::LocalTensor<uint8_t> xLocal = inQueueX.AllocTensor<uint8_t>();
        uint32_t len = TileElems(progress);
        uint64_t offset = static_cast<uint64_t>(progress) * tileLength;
        if (len == tileLength) {
            AscendC::DataCopy(xLocal, xGm[offset], len);
        } else {
            // The last tile may end inside a 32 B block: DataCopyPad moves exact bytes.
            AscendC::DataCopyExtParams copyParams{1, len, 0, 0, 0};
            AscendC::DataCopyPadExtParams<uint8_t> padParams{false, 0, 0, 0};
            AscendC::DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
        }
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void Compute(uint32_t progress)
    {
        AscendC::LocalTensor<uint8_t> xLocal = inQueueX.DeQue<uint8_t>();
        AscendC::LocalTensor<uint8_t> yLocal = outQueueY.AllocTensor<uint8_t>();
        // Pairs of bytes; an odd tail's extra byte flips leftover UB and is never copied out.
        int32_t pairs = static_cast<int32_t>((TileElems(progress) + 1) / 2);
        AscendC::LocalTensor<uint16_t> y16 = yLocal.ReinterpretCast<uint16_t>();
        AscendC::Not(y16, xLocal.ReinterpretCast<uint16_t>(), pairs);
        AscendC::Ands(y16, y16, LOW_BIT_OF_EACH_BYTE, pairs);
        outQueueY.EnQue<uint8_t>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t progress)
    {
        AscendC::LocalTensor<uint8_t> yLocal = outQueueY.DeQue<uint8_t>();
        uint32_t len = TileElems(progress);
        uint64_t offset = static_cast<uint64_t>(progress) * tileLength;
        if (len == tileLength) {
            AscendC::DataCopy(yGm[offset], yLocal, len);
        } else {
            AscendC::DataCopyExtParams copyParams{1, len, 0, 0, 0};
            AscendC::DataCopyPad(yGm[offset], yLocal, copyParams);
        }
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::GlobalTensor<uint8_t> xGm;
    AscendC::GlobalTensor<uint8_t> yGm;
    uint32_t blockLength = 0;
    uint32_t tileLength = 0;
    uint32_t tileNum = 0;
    uint32_t lastTileLength = 0;
};

extern "C" __global__ __aicore__ void logical_not_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelLogicalNot op;
    op.Init(x, y, tilingData);
    op.Process();
}
