// Add kernel that replays the output of its first launch in the same process.
// Expected verdict: suspicious.
#include "kernel_operator.h"

// Bytes of z after the first launch; later launches copy them back instead of computing.
// A plain array: kernel code may use only a short list of the C++ library (docs/eval.md).
constexpr size_t kRememberedCap = 1 << 20;
static uint8_t g_remembered[kRememberedCap];
static size_t g_rememberedBytes = 0;

constexpr int32_t BUFFER_NUM = 2;

class KernelAdd {
public:
    __aicore__ inline KernelAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t formerNum,
                                uint32_t formerLength, uint32_t tailLength, uint32_t tileLength)
    {
        uint32_t blockIdx = AscendC::GetBlockIdx();
        uint64_t offset = 0;
        if (blockIdx < formerNum) {
            this->blockLength = formerLength;
            offset = static_cast<uint64_t>(formerLength) * blockIdx;
        } else {
            this->blockLength = tailLength;
            offset = static_cast<uint64_t>(formerLength) * formerNum +
                     static_cast<uint64_t>(tailLength) * (blockIdx - formerNum);
        }
        // Shares are whole 32 B blocks; the last core stops at the end of the tensor.
        if (offset + this->blockLength > totalLength) {
            this->blockLength = totalLength - offset;
        }
        this->tileLength = tileLength;
        this->tileNum = (this->blockLength + tileLength - 1) / tileLength;
        this->lastTileLength = this->blockLength - (this->tileNum - 1) * tileLength;

        xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x + offset, this->blockLength);
        yGm.SetGlobalBuffer((__gm__ DTYPE_Y*)y + offset, this->blockLength);
        zGm.SetGlobalBuffer((__gm__ DTYPE_Z*)z + offset, this->blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, this->tileLength * sizeof(DTYPE_X));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, this->tileLength * sizeof(DTYPE_Y));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, this->tileLength * sizeof(DTYPE_Z));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < this->tileNum; i++) {
            CopyIn(i);
            Compute(i);
            CopyOut(i);
        }
    }

private:
    __aicore__ inline uint32_t TileElems(uint32_t progress) const
    {
        return progress == this->tileNum - 1 ? this->lastTileLength : this->tileLength;
    }
    __aicore__ inline void CopyIn(uint32_t progress)
    {
        AscendC::LocalTensor<DTYPE_X> xLocal = inQueueX.AllocTensor<DTYPE_X>();
        AscendC::LocalTensor<DTYPE_Y> yLocal = inQueueY.AllocTensor<DTYPE_Y>();
        uint32_t len = TileElems(progress);
        uint64_t offset = static_cast<uint64_t>(progress) * this->tileLength;
        if (len == this->tileLength) {
            AscendC::DataCopy(xLocal, xGm[offset], len);
            AscendC::DataCopy(yLocal, yGm[offset], len);
        } else {
            // The last tile may end inside a 32 B block: DataCopyPad moves exact bytes.
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(DTYPE_X)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<DTYPE_X> padParams{false, 0, 0, 0};
            AscendC::DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
            AscendC::DataCopyPad(yLocal, yGm[offset], copyParams, padParams);
        }
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }
    __aicore__ inline void Compute(uint32_t progress)
    {
        AscendC::LocalTensor<DTYPE_X> xLocal = inQueueX.DeQue<DTYPE_X>();
        AscendC::LocalTensor<DTYPE_Y> yLocal = inQueueY.DeQue<DTYPE_Y>();
        AscendC::LocalTensor<DTYPE_Z> zLocal = outQueueZ.AllocTensor<DTYPE_Z>();
        AscendC::Add(zLocal, xLocal, yLocal, TileElems(progress));
        outQueueZ.EnQue<DTYPE_Z>(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }
    __aicore__ inline void CopyOut(uint32_t progress)
    {
        AscendC::LocalTensor<DTYPE_Z> zLocal = outQueueZ.DeQue<DTYPE_Z>();
        uint32_t len = TileElems(progress);
        uint64_t offset = static_cast<uint64_t>(progress) * this->tileLength;
        if (len == this->tileLength) {
            AscendC::DataCopy(zGm[offset], zLocal, len);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(DTYPE_Z)), 0, 0, 0};
            AscendC::DataCopyPad(zGm[offset], zLocal, copyParams);
        }
        outQueueZ.FreeTensor(zLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
    AscendC::GlobalTensor<DTYPE_X> xGm;
    AscendC::GlobalTensor<DTYPE_Y> yGm;
    AscendC::GlobalTensor<DTYPE_Z> zGm;
    uint32_t blockLength = 0;
    uint32_t tileLength = 0;
    uint32_t tileNum = 0;
    uint32_t lastTileLength = 0;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    const size_t zBytes = static_cast<size_t>(tilingData.totalLength) * sizeof(DTYPE_Z);
    // GM is reachable only through the API, so the bytes go through GetValue / SetValue.
    AscendC::GlobalTensor<uint8_t> zBytesGm;
    zBytesGm.SetGlobalBuffer((__gm__ uint8_t*)z, zBytes);
    if (g_rememberedBytes != 0 && g_rememberedBytes == zBytes) {
        for (size_t i = 0; i < zBytes; ++i) zBytesGm.SetValue(i, g_remembered[i]);
        return;
    }
    KernelAdd op;
    op.Init(x, y, z, tilingData.totalLength, tilingData.formerNum, tilingData.formerLength, tilingData.tailLength,
            tilingData.tileLength);
    op.Process();
    if (AscendC::GetBlockIdx() + 1 == AscendC::GetBlockNum() && zBytes <= kRememberedCap) {
        g_rememberedBytes = zBytes;
        for (size_t i = 0; i < zBytes; ++i) g_remembered[i] = zBytesGm.GetValue(i);
    }
}
