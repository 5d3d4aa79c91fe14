// Kernel of MseLossCustom: (predict - label)^2, kept elementwise (reduction "none") or
// summed ("sum") and divided by the element count ("mean"). Each core streams its
// contiguous slice of the flattened inputs through UB with double buffering; 16-bit
// inputs are computed in float. For the reductions each core accumulates its tiles'
// sums in a float vector register block, writes that partial to its own 32 B slot of the
// workspace, and after SyncAll core 0 adds the partials and writes the scalar.
// expert: a reduction the tiling gives one core (small inputs: the core count follows the
// work) skips that round trip: the core scales its own sum and writes the scalar, with no
// workspace write, no SyncAll and no read-back of the partials.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t REDUCE_NONE = 0;
constexpr uint32_t BLOCK_FLOATS = 8;  // one 32 B block of float

template <typename T>
class KernelMseLoss {
    static constexpr bool IS_FLOAT = std::is_same_v<T, float>;

public:
    __aicore__ inline KernelMseLoss() {}
    template <typename Tiling>
    __aicore__ inline void Init(GM_ADDR predict, GM_ADDR label, GM_ADDR y, GM_ADDR workspace, const Tiling& t)
    {
        blockIdx = AscendC::GetBlockIdx();
        uint64_t offset = 0;
        if (blockIdx < t.formerNum) {
            blockLength = t.formerLength;
            offset = static_cast<uint64_t>(t.formerLength) * blockIdx;
        } else {
            blockLength = t.tailLength;
            offset = static_cast<uint64_t>(t.formerLength) * t.formerNum +
                     static_cast<uint64_t>(t.tailLength) * (blockIdx - t.formerNum);
        }
        // Shares are whole 512 B units; the last core stops at the end of the tensor.
        if (offset + blockLength > t.totalLength) {
            blockLength = t.totalLength - offset;
        }
        tileLength = t.tileLength;
        tileNum = (blockLength + tileLength - 1) / tileLength;
        lastTileLength = blockLength - (tileNum - 1) * tileLength;
        usedCores = t.usedCores;
        reduction = t.reduction;
        scale = t.scale;

        predictGm.SetGlobalBuffer((__gm__ T*)predict + offset, blockLength);
        labelGm.SetGlobalBuffer((__gm__ T*)label + offset, blockLength);
        // Both inputs are read exactly once: their lines need not displace y in L2.
        predictGm.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
        labelGm.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
        pipe.InitBuffer(inQueueP, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(inQueueL, BUFFER_NUM, tileLength * sizeof(T));
        if (reduction == REDUCE_NONE) {
            yGm.SetGlobalBuffer((__gm__ T*)y + offset, blockLength);
            pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(T));
        } else {
            yGm.SetGlobalBuffer((__gm__ T*)y, 1);
            wsGm.SetGlobalBuffer((__gm__ float*)workspace, static_cast<uint64_t>(usedCores) * BLOCK_FLOATS);
            pipe.InitBuffer(outQueuePart, 1, BLOCK_FLOATS * sizeof(float));
            pipe.InitBuffer(inQueuePart, 1, usedCores * BLOCK_FLOATS * sizeof(float));
            pipe.InitBuffer(outQueueScalar, 1, 32);
            pipe.InitBuffer(accBuf, BLOCK_FLOATS * sizeof(float));
            pipe.InitBuffer(resultBuf, BLOCK_FLOATS * sizeof(float));
            // ReduceSum's first pass leaves one float per 64-element repeat.
            uint32_t workFloats = ((tileLength + 63) / 64 + BLOCK_FLOATS - 1) / BLOCK_FLOATS * BLOCK_FLOATS;
            if (workFloats < usedCores) {
                workFloats = (usedCores + BLOCK_FLOATS - 1) / BLOCK_FLOATS * BLOCK_FLOATS;
            }
            pipe.InitBuffer(workBuf, workFloats * sizeof(float));
        }
        // float: one difference tile; 16-bit: float copies of both inputs.
        pipe.InitBuffer(calcBuf, (IS_FLOAT ? 1 : 2) * tileLength * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        if (reduction == REDUCE_NONE) {
            for (uint32_t i = 0; i < tileNum; i++) {
                CopyIn(i);
                ComputeElementwise(i);
                CopyOut(i);
            }
            return;
        }
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        AscendC::Duplicate(acc, 0.0f, BLOCK_FLOATS);
        for (uint32_t i = 0; i < tileNum; i++) {
            CopyIn(i);
            ComputeSum(i, acc);
        }
        if (usedCores == 1) {
            WriteScalar(acc);
            return;
        }
        WritePartial(acc);
        // Every core's partial is in the workspace before core 0 adds them up.
        AscendC::SyncAll();
        if (blockIdx == 0) {
            FinalSum();
        }
    }

private:
    __aicore__ inline uint32_t TileElems(uint32_t progress) const
    {
        return progress == tileNum - 1 ? lastTileLength : tileLength;
    }
    __aicore__ inline void CopyTile(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                                    uint64_t offset, uint32_t len)
    {
        if (len == tileLength) {
            AscendC::DataCopy(dst, src[offset], len);
        } else {
            // The last tile may end inside a 32 B block: DataCopyPad moves exact bytes.
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
            AscendC::DataCopyPad(dst, src[offset], copyParams, padParams);
        }
    }
    __aicore__ inline void CopyIn(uint32_t progress)
    {
        uint32_t len = TileElems(progress);
        uint64_t offset = static_cast<uint64_t>(progress) * tileLength;
        AscendC::LocalTensor<T> pLocal = inQueueP.AllocTensor<T>();
        AscendC::LocalTensor<T> lLocal = inQueueL.AllocTensor<T>();
        CopyTile(pLocal, predictGm, offset, len);
        CopyTile(lLocal, labelGm, offset, len);
        inQueueP.EnQue(pLocal);
        inQueueL.EnQue(lLocal);
    }
    // dst = (p - l)^2 in float; dst is a calc tile, or y itself for float elementwise.
    __aicore__ inline void SquaredError(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<T>& p,
                                        const AscendC::LocalTensor<T>& l, uint32_t len)
    {
        if constexpr (IS_FLOAT) {
            AscendC::Sub(dst, p, l, len);
        } else {
            AscendC::LocalTensor<float> lf = calcBuf.Get<float>()[tileLength];
            AscendC::Cast(dst, p, AscendC::RoundMode::CAST_NONE, len);
            AscendC::Cast(lf, l, AscendC::RoundMode::CAST_NONE, len);
            AscendC::Sub(dst, dst, lf, len);
        }
        AscendC::Mul(dst, dst, dst, len);
    }
    __aicore__ inline void ComputeElementwise(uint32_t progress)
    {
        uint32_t len = TileElems(progress);
        AscendC::LocalTensor<T> pLocal = inQueueP.DeQue<T>();
        AscendC::LocalTensor<T> lLocal = inQueueL.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        if constexpr (IS_FLOAT) {
            SquaredError(yLocal, pLocal, lLocal, len);
        } else {
            AscendC::LocalTensor<float> diff = calcBuf.Get<float>();
            SquaredError(diff, pLocal, lLocal, len);
            AscendC::Cast(yLocal, diff, AscendC::RoundMode::CAST_RINT, len);
        }
        outQueueY.EnQue<T>(yLocal);
        inQueueP.FreeTensor(pLocal);
        inQueueL.FreeTensor(lLocal);
    }
    __aicore__ inline void ComputeSum(uint32_t progress, const AscendC::LocalTensor<float>& acc)
    {
        uint32_t len = TileElems(progress);
        AscendC::LocalTensor<T> pLocal = inQueueP.DeQue<T>();
        AscendC::LocalTensor<T> lLocal = inQueueL.DeQue<T>();
        AscendC::LocalTensor<float> diff = calcBuf.Get<float>();
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::LocalTensor<float> result = resultBuf.Get<float>();
        SquaredError(diff, pLocal, lLocal, len);
        inQueueP.FreeTensor(pLocal);
        inQueueL.FreeTensor(lLocal);
        AscendC::ReduceSum(result, diff, work, len);
        AscendC::Add(acc, acc, result, 1);
    }
    __aicore__ inline void CopyOut(uint32_t progress)
    {
        uint32_t len = TileElems(progress);
        uint64_t offset = static_cast<uint64_t>(progress) * tileLength;
        AscendC::LocalTensor<T> yLocal = outQueueY.DeQue<T>();
        if (len == tileLength) {
            AscendC::DataCopy(yGm[offset], yLocal, len);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[offset], yLocal, copyParams);
        }
        outQueueY.FreeTensor(yLocal);
    }
    // The core's partial sum (element 0, the rest of the block zero) to its workspace slot.
    __aicore__ inline void WritePartial(const AscendC::LocalTensor<float>& acc)
    {
        AscendC::LocalTensor<float> part = outQueuePart.AllocTensor<float>();
        AscendC::Adds(part, acc, 0.0f, BLOCK_FLOATS);
        outQueuePart.EnQue(part);
        part = outQueuePart.DeQue<float>();
        AscendC::DataCopy(wsGm[static_cast<uint64_t>(blockIdx) * BLOCK_FLOATS], part, BLOCK_FLOATS);
        outQueuePart.FreeTensor(part);
    }
    __aicore__ inline void FinalSum()
    {
        uint32_t count = usedCores * BLOCK_FLOATS;
        AscendC::LocalTensor<float> parts = inQueuePart.AllocTensor<float>();
        AscendC::DataCopy(parts, wsGm, count);
        inQueuePart.EnQue(parts);
        parts = inQueuePart.DeQue<float>();
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::LocalTensor<float> result = resultBuf.Get<float>();
        AscendC::ReduceSum(result, parts, work, count);
        inQueuePart.FreeTensor(parts);
        WriteScalar(result);
    }
    // y = sum * scale (element 0 of `sum`), rounded once to T and copied out.
    __aicore__ inline void WriteScalar(const AscendC::LocalTensor<float>& sum)
    {
        AscendC::LocalTensor<float> result = resultBuf.Get<float>();
        AscendC::Muls(result, sum, scale, 1);
        AscendC::LocalTensor<T> out = outQueueScalar.AllocTensor<T>();
        if constexpr (IS_FLOAT) {
            AscendC::Adds(out, result, 0.0f, 1);
        } else {
            AscendC::Cast(out, result, AscendC::RoundMode::CAST_RINT, 1);
        }
        outQueueScalar.EnQue<T>(out);
        out = outQueueScalar.DeQue<T>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPad(yGm, out, copyParams);
        outQueueScalar.FreeTensor(out);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueP, inQueueL;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueuePart;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueuePart, outQueueScalar;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> calcBuf, accBuf, resultBuf, workBuf;
    AscendC::GlobalTensor<T> predictGm, labelGm, yGm;
    AscendC::GlobalTensor<float> wsGm;
    uint32_t blockIdx = 0;
    uint32_t blockLength = 0;
    uint32_t tileLength = 0;
    uint32_t tileNum = 0;
    uint32_t lastTileLength = 0;
    uint32_t usedCores = 0;
    uint32_t reduction = 0;
    float scale = 1.0f;
};

extern "C" __global__ __aicore__ void mse_loss_custom(GM_ADDR predict, GM_ADDR label, GM_ADDR y, GM_ADDR workspace,
                                                      GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelMseLoss<DTYPE_PREDICT> op;
    op.Init(predict, label, y, AscendC::GetUserWorkspace(workspace), tilingData);
    op.Process();
}
