// Kernel of LogicalOrCustom: y = x1 || x2 on bool tensors (one byte per element, 0 or 1).
// Each core takes a contiguous slice of the flattened tensors and streams it through UB
// in tiles with double buffering (CopyIn on MTE2, Compute on V and CopyOut on MTE3
// overlap across tiles).
// Compute: the vector unit has no byte-wide Or, but OR of 0/1 bytes is bytewise, so the
// tile is viewed as uint16 pairs and one Or handles two elements per lane.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

class KernelLogicalOr {
public:
    __aicore__ inline KernelLogicalOr() {}
    template <typename Tiling>
    __aicore__ inline void Init(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, const Tiling& tiling)
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

        x1Gm.SetGlobalBuffer((__gm__ uint8_t*)x1 + offset, blockLength);
        x2Gm.SetGlobalBuffer((__gm__ uint8_t*)x2 + offset, blockLength);
        yGm.SetGlobalBuffer((__gm__ uint8_t*)y + offset, blockLength);
        pipe.InitBuffer(inQueueX1, BUFFER_NUM, tileLength);
        pipe.InitBuffer(inQueueX2, BUFFER_NUM, tileLength);
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
        AscendC::LocalTensor<uint8_t> x1Local = inQueueX1.AllocTensor<uint8_t>();
        AscendC::LocalTensor<uint8_t> x2Local = inQueueX2.AllocTensor<uint8_t>();
        uint32_t len = TileElems(progress);
        uint64_t offset = static_cast<uint64_t>(progress) * tileLength;
        if (len == tileLength) {
            AscendC::DataCopy(x1Local, x1Gm[offset], len);
            AscendC::DataCopy(x2Local, x2Gm[offset], len);
        } else {
            // The last tile may end inside a 32 B block: DataCopyPad moves exact bytes.
            AscendC::DataCopyExtParams copyParams{1, len, 0, 0, 0};
            AscendC::DataCopyPadExtParams<uint8_t> padParams{false, 0, 0, 0};
            AscendC::DataCopyPad(x1Local, x1Gm[offset], copyParams, padParams);
            AscendC::DataCopyPad(x2Local, x2Gm[offset], copyParams, padParams);
        }
        inQueueX1.EnQue(x1Local);
        inQueueX2.EnQue(x2Local);
    }
    __aicore__ inline void Compute(uint32_t progress)
    {
        AscendC::LocalTensor<uint8_t> x1Local = inQueueX1.DeQue<uint8_t>();
        AscendC::LocalTensor<uint8_t> x2Local = inQueueX2.DeQue<uint8_t>();
        AscendC::LocalTensor<uint8_t> yLocal = outQueueY.AllocTensor<uint8_t>();
        // Pairs of bytes; an odd tail's extra byte ORs leftover UB and is never copied out.
        int32_t pairs = static_cast<int32_t>((TileElems(progress) + 1) / 2);
        AscendC::Or(yLocal.ReinterpretCast<uint16_t>(), x1Local.ReinterpretCast<uint16_t>(),
                    x2Local.ReinterpretCast<uint16_t>(), pairs);
        outQueueY.EnQue<uint8_t>(yLocal);
        inQueueX1.FreeTensor(x1Local);
        inQueueX2.FreeTensor(x2Local);
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
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX1, inQueueX2;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::GlobalTensor<uint8_t> x1Gm;
    AscendC::GlobalTensor<uint8_t> x2Gm;
    AscendC::GlobalTensor<uint8_t> yGm;
    uint32_t blockLength = 0;
    uint32_t tileLength = 0;
    uint32_t tileNum = 0;
    uint32_t lastTileLength = 0;
};

extern "C" __global__ __aicore__ void logical_or_custom(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelLogicalOr op;
    op.Init(x1, x2, y, tilingData);
    op.Process();
}
