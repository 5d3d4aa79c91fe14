// Kernel of NegCustom (expert): y = -x. Each core takes a contiguous slice of the
// flattened tensor and streams it through UB in tiles with double buffering (CopyIn on
// MTE2, Compute on V and CopyOut on MTE3 overlap across tiles).
// bfloat16 is computed in float (no bf16 vector arithmetic); float16 and float natively.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelNeg {
    // The vector unit computes T directly unless this is set.
    static constexpr bool COMPUTE_IN_FLOAT = std::is_same_v<T, bfloat16_t>;

public:
    __aicore__ inline KernelNeg() {}
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
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(T));
        if constexpr (COMPUTE_IN_FLOAT) {
            pipe.InitBuffer(xFloatBuf, tileLength * sizeof(float));
        }
    }
    __aicore__ inline void Process()
    {
        // Two tiles per iteration, each stage issued for both: the second tile's copy-in is
        // queued on MTE2 before the first tile's compute waits for its data.
        for (uint32_t i = 0; i + 1 < tileNum; i += 2) {
            CopyIn(i);
            CopyIn(i + 1);
            Compute(i);
            Compute(i + 1);
            CopyOut(i);
            CopyOut(i + 1);
        }
        if (tileNum % 2 != 0) {
            CopyIn(tileNum - 1);
            Compute(tileNum - 1);
            CopyOut(tileNum - 1);
        }
    }

private:
    __aicore__ inline uint32_t TileElems(uint32_t progress) const
    {
        return progress == tileNum - 1 ? lastTileLength : tileLength;
    }
    __aicore__ inline void CopyIn(uint32_t progress)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        uint32_t len = TileElems(progress);
        uint64_t offset = static_cast<uint64_t>(progress) * tileLength;
        if (len == tileLength) {
            AscendC::DataCopy(xLocal, xGm[offset], len);
        } else {
            // The last tile may end inside a 32 B block: DataCopyPad moves exact bytes.
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
            AscendC::DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
        }
        inQueueX.EnQue(xLocal);
    }
    // y = f(inputs) on `len` elements of the compute type C.
    template <typename C>
    __aicore__ inline void Calc(const AscendC::LocalTensor<C>& out, const AscendC::LocalTensor<C>& x, uint32_t len)
    {
        AscendC::Neg(out, x, len);
    }
    __aicore__ inline void Compute(uint32_t progress)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        uint32_t len = TileElems(progress);
        if constexpr (COMPUTE_IN_FLOAT) {
            AscendC::LocalTensor<float> xFloat = xFloatBuf.Get<float>();
            AscendC::Cast(xFloat, xLocal, AscendC::RoundMode::CAST_NONE, len);
            // The result overwrites the last float input: every Calc body reads that input
            // only in its first instruction, elementwise, before anything else is written.
            Calc(xFloat, xFloat, len);
            AscendC::Cast(yLocal, xFloat, AscendC::RoundMode::CAST_RINT, len);
        } else {
            Calc(yLocal, xLocal, len);
        }
        outQueueY.EnQue<T>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t progress)
    {
        AscendC::LocalTensor<T> yLocal = outQueueY.DeQue<T>();
        uint32_t len = TileElems(progress);
        uint64_t offset = static_cast<uint64_t>(progress) * tileLength;
        if (len == tileLength) {
            AscendC::DataCopy(yGm[offset], yLocal, len);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[offset], yLocal, copyParams);
        }
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> xFloatBuf;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> yGm;
    uint32_t blockLength = 0;
    uint32_t tileLength = 0;
    uint32_t tileNum = 0;
    uint32_t lastTileLength = 0;
};

extern "C" __global__ __aicore__ void neg_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelNeg<DTYPE_X> op;
    op.Init(x, y, tilingData);
    op.Process();
}
