// Kernel of LerpCustom: y = start + weight * (end - start). Each core takes a contiguous slice of the
// flattened tensor and streams it through UB in tiles with double buffering (CopyIn on
// MTE2, Compute on V and CopyOut on MTE3 overlap across tiles).
// float16 and bfloat16 are computed in float (Cast in, compute, Cast out) for precision.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelLerp {
    // The vector unit computes T directly unless this is set.
    static constexpr bool COMPUTE_IN_FLOAT = !std::is_same_v<T, float>;

public:
    __aicore__ inline KernelLerp() {}
    template <typename Tiling>
    __aicore__ inline void Init(GM_ADDR start, GM_ADDR end, GM_ADDR y, const Tiling& tiling)
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
        // Shares are whole 32 B blocks; the last core stops at the end of the tensor.
        if (offset + blockLength > tiling.totalLength) {
            blockLength = tiling.totalLength - offset;
        }
        tileLength = tiling.tileLength;
        tileNum = (blockLength + tileLength - 1) / tileLength;
        lastTileLength = blockLength - (tileNum - 1) * tileLength;
        weight = tiling.weight;

        startGm.SetGlobalBuffer((__gm__ T*)start + offset, blockLength);
        endGm.SetGlobalBuffer((__gm__ T*)end + offset, blockLength);
        yGm.SetGlobalBuffer((__gm__ T*)y + offset, blockLength);
        pipe.InitBuffer(inQueueStart, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(inQueueEnd, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(T));
        if constexpr (COMPUTE_IN_FLOAT) {
            pipe.InitBuffer(startFloatBuf, tileLength * sizeof(float));
            pipe.InitBuffer(endFloatBuf, tileLength * sizeof(float));
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
        AscendC::LocalTensor<T> startLocal = inQueueStart.AllocTensor<T>();
        AscendC::LocalTensor<T> endLocal = inQueueEnd.AllocTensor<T>();
        uint32_t len = TileElems(progress);
        uint64_t offset = static_cast<uint64_t>(progress) * tileLength;
        if (len == tileLength) {
            AscendC::DataCopy(startLocal, startGm[offset], len);
            AscendC::DataCopy(endLocal, endGm[offset], len);
        } else {
            // The last tile may end inside a 32 B block: DataCopyPad moves exact bytes.
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
            AscendC::DataCopyPad(startLocal, startGm[offset], copyParams, padParams);
            AscendC::DataCopyPad(endLocal, endGm[offset], copyParams, padParams);
        }
        inQueueStart.EnQue(startLocal);
        inQueueEnd.EnQue(endLocal);
    }
    // y = f(inputs) on `len` elements of the compute type C.
    template <typename C>
    __aicore__ inline void Calc(const AscendC::LocalTensor<C>& out, const AscendC::LocalTensor<C>& start, const AscendC::LocalTensor<C>& end, uint32_t len)
    {
        AscendC::Sub(out, end, start, len);
        AscendC::Muls(out, out, static_cast<C>(weight), len);
        AscendC::Add(out, out, start, len);
    }
    __aicore__ inline void Compute(uint32_t progress)
    {
        AscendC::LocalTensor<T> startLocal = inQueueStart.DeQue<T>();
        AscendC::LocalTensor<T> endLocal = inQueueEnd.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        uint32_t len = TileElems(progress);
        if constexpr (COMPUTE_IN_FLOAT) {
            AscendC::LocalTensor<float> startFloat = startFloatBuf.Get<float>();
            AscendC::LocalTensor<float> endFloat = endFloatBuf.Get<float>();
            AscendC::Cast(startFloat, startLocal, AscendC::RoundMode::CAST_NONE, len);
            AscendC::Cast(endFloat, endLocal, AscendC::RoundMode::CAST_NONE, len);
            // The result overwrites the last float input: every Calc body reads that input
            // only in its first instruction, elementwise, before anything else is written.
            Calc(endFloat, startFloat, endFloat, len);
            AscendC::Cast(yLocal, endFloat, AscendC::RoundMode::CAST_RINT, len);
        } else {
            Calc(yLocal, startLocal, endLocal, len);
        }
        outQueueY.EnQue<T>(yLocal);
        inQueueStart.FreeTensor(startLocal);
        inQueueEnd.FreeTensor(endLocal);
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
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueStart, inQueueEnd;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> startFloatBuf, endFloatBuf;
    AscendC::GlobalTensor<T> startGm;
    AscendC::GlobalTensor<T> endGm;
    AscendC::GlobalTensor<T> yGm;
    uint32_t blockLength = 0;
    uint32_t tileLength = 0;
    uint32_t tileNum = 0;
    uint32_t lastTileLength = 0;
    float weight = 0.0f;
};

extern "C" __global__ __aicore__ void lerp_custom(GM_ADDR start, GM_ADDR end, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelLerp<DTYPE_START> op;
    op.Init(start, end, y, tilingData);
    op.Process();
}
