// Kernel of MulCustom (expert): z = x * y. Each core takes a contiguous slice of the
// flattened tensor and streams it through UB in tiles with double buffering (CopyIn on
// MTE2, Compute on V and CopyOut on MTE3 overlap across tiles).
// bfloat16 is computed in float (no bf16 vector arithmetic); float16 and float natively.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t BANK_PAD = 256;  // bytes; the tiling leaves room for two pads

template <typename T>
class KernelMul {
    // The vector unit computes T directly unless this is set.
    static constexpr bool COMPUTE_IN_FLOAT = std::is_same_v<T, bfloat16_t>;

public:
    __aicore__ inline KernelMul() {}
    template <typename Tiling>
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const Tiling& tiling)
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
        // Shares are whole 512 B units; the last core stops at the end of the tensor.
        if (offset + blockLength > tiling.totalLength) {
            blockLength = tiling.totalLength - offset;
        }
        tileLength = tiling.tileLength;
        tileNum = (blockLength + tileLength - 1) / tileLength;
        lastTileLength = blockLength - (tileNum - 1) * tileLength;

        xGm.SetGlobalBuffer((__gm__ T*)x + offset, blockLength);
        // xGm is read exactly once: its lines need not displace the output in L2.
        xGm.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
        yGm.SetGlobalBuffer((__gm__ T*)y + offset, blockLength);
        // yGm is read exactly once: its lines need not displace the output in L2.
        yGm.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
        zGm.SetGlobalBuffer((__gm__ T*)z + offset, blockLength);
        // expert: bank-conflict-free UB layout. Tiles are whole 512 B, so every buffer would
        // start in UB bank group 0 and Mul would read two blocks per bank group per repeat
        // (two beats). A 256 B pad moves y (and z) by half the 16 groups.
        // expert: with regionPad != 0, tile parity b's x, y and z fill the 64 KB UB bank
        // region b (the pad completes it) and the float scratch sits in the third: a copy of
        // one tile never waits for a vector instruction on the other tile's banks.
        for (int32_t b = 0; b < BUFFER_NUM; b++) {
            pipe.InitBuffer(inQueueX[b], 1, tileLength * sizeof(T));
            pipe.InitBuffer(padQ[b], BANK_PAD);
            pipe.InitBuffer(inQueueY[b], 1, tileLength * sizeof(T));
            pipe.InitBuffer(outQueueZ[b], 1, tileLength * sizeof(T));
            if (tiling.regionPad != 0) {
                pipe.InitBuffer(regionPadBuf[b], tiling.regionPad);
            }
        }
        if constexpr (COMPUTE_IN_FLOAT) {
            pipe.InitBuffer(xFloatBuf, tileLength * sizeof(float));
            pipe.InitBuffer(padF, BANK_PAD);
            pipe.InitBuffer(yFloatBuf, tileLength * sizeof(float));
        }
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
        const uint32_t b = progress % BUFFER_NUM;
        AscendC::LocalTensor<T> xLocal = inQueueX[b].AllocTensor<T>();
        AscendC::LocalTensor<T> yLocal = inQueueY[b].AllocTensor<T>();
        uint32_t len = TileElems(progress);
        uint64_t offset = static_cast<uint64_t>(progress) * tileLength;
        if (len == tileLength) {
            AscendC::DataCopy(xLocal, xGm[offset], len);
            AscendC::DataCopy(yLocal, yGm[offset], len);
        } else {
            // The last tile may end inside a 32 B block: DataCopyPad moves exact bytes.
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
            AscendC::DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
            AscendC::DataCopyPad(yLocal, yGm[offset], copyParams, padParams);
        }
        inQueueX[b].EnQue(xLocal);
        inQueueY[b].EnQue(yLocal);
    }
    // z = f(inputs) on `len` elements of the compute type C.
    template <typename C>
    __aicore__ inline void Calc(const AscendC::LocalTensor<C>& out, const AscendC::LocalTensor<C>& x, const AscendC::LocalTensor<C>& y, uint32_t len)
    {
        AscendC::Mul(out, x, y, len);
    }
    __aicore__ inline void Compute(uint32_t progress)
    {
        const uint32_t b = progress % BUFFER_NUM;
        AscendC::LocalTensor<T> xLocal = inQueueX[b].DeQue<T>();
        AscendC::LocalTensor<T> yLocal = inQueueY[b].DeQue<T>();
        AscendC::LocalTensor<T> zLocal = outQueueZ[b].AllocTensor<T>();
        uint32_t len = TileElems(progress);
        if constexpr (COMPUTE_IN_FLOAT) {
            AscendC::LocalTensor<float> xFloat = xFloatBuf.Get<float>();
            AscendC::LocalTensor<float> yFloat = yFloatBuf.Get<float>();
            AscendC::Cast(xFloat, xLocal, AscendC::RoundMode::CAST_NONE, len);
            AscendC::Cast(yFloat, yLocal, AscendC::RoundMode::CAST_NONE, len);
            // The result overwrites the last float input: every Calc body reads that input
            // only in its first instruction, elementwise, before anything else is written.
            Calc(yFloat, xFloat, yFloat, len);
            AscendC::Cast(zLocal, yFloat, AscendC::RoundMode::CAST_RINT, len);
        } else {
            Calc(zLocal, xLocal, yLocal, len);
        }
        outQueueZ[b].EnQue<T>(zLocal);
        inQueueX[b].FreeTensor(xLocal);
        inQueueY[b].FreeTensor(yLocal);
    }
    __aicore__ inline void CopyOut(uint32_t progress)
    {
        const uint32_t b = progress % BUFFER_NUM;
        AscendC::LocalTensor<T> zLocal = outQueueZ[b].DeQue<T>();
        uint32_t len = TileElems(progress);
        uint64_t offset = static_cast<uint64_t>(progress) * tileLength;
        if (len == tileLength) {
            AscendC::DataCopy(zGm[offset], zLocal, len);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPad(zGm[offset], zLocal, copyParams);
        }
        outQueueZ[b].FreeTensor(zLocal);
    }

private:
    AscendC::TPipe pipe;
    // never accessed: only shift buffers
    AscendC::TBuf<AscendC::QuePosition::VECCALC> padQ[BUFFER_NUM], padF, regionPadBuf[BUFFER_NUM];
    // expert: one single-buffer queue per tile parity (double buffering by alternating them),
    // so each parity's buffers can be placed in a UB bank region of their own.
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueX[BUFFER_NUM], inQueueY[BUFFER_NUM];
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueueZ[BUFFER_NUM];
    AscendC::TBuf<AscendC::QuePosition::VECCALC> xFloatBuf, yFloatBuf;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> yGm;
    AscendC::GlobalTensor<T> zGm;
    uint32_t blockLength = 0;
    uint32_t tileLength = 0;
    uint32_t tileNum = 0;
    uint32_t lastTileLength = 0;
};

extern "C" __global__ __aicore__ void mul_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelMul<DTYPE_X> op;
    op.Init(x, y, z, tilingData);
    op.Process();
}
