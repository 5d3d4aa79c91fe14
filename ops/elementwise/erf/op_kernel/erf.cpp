// Kernel of ErfCustom: y = erf(x). Each core takes a contiguous run of the flattened tensor (whole
// 32 B blocks) and streams it through UB in tiles: CopyIn (DataCopy, or DataCopyPad for a tile
// ending inside a block), Compute, CopyOut, with double-buffered queues so MTE2, V and MTE3
// overlap across tiles. fp16 and bf16 are computed in float.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t WORK_FLOATS = 3;

template <typename T>
class KernelErf {
    static constexpr bool COMPUTE_IN_FLOAT = !std::is_same_v<T, float>;
    using C = std::conditional_t<COMPUTE_IN_FLOAT, float, T>;

public:
    __aicore__ inline KernelErf() {}
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
        if (offset >= tiling.totalLength) {
            blockLength = 0;
        } else if (offset + blockLength > tiling.totalLength) {
            blockLength = static_cast<uint32_t>(tiling.totalLength - offset);
        }
        tileLength = tiling.tileLength;
        tileNum = (blockLength + tileLength - 1) / tileLength;
        xGm.SetGlobalBuffer((__gm__ T*)x + offset, blockLength);
        yGm.SetGlobalBuffer((__gm__ T*)y + offset, blockLength);
        pipe.InitBuffer(inQueue, tiling.bufferNum, tileLength * sizeof(T));
        pipe.InitBuffer(outQueue, tiling.bufferNum, tileLength * sizeof(T));
        if constexpr (COMPUTE_IN_FLOAT) {
            pipe.InitBuffer(floatBuf, tileLength * sizeof(float));
        }
        if constexpr (WORK_FLOATS > 0) {
            pipe.InitBuffer(workBuf, WORK_FLOATS * tileLength * sizeof(float));
        }
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < tileNum; i++) {
            uint32_t len = i == tileNum - 1 ? blockLength - i * tileLength : tileLength;
            CopyIn(i, len);
            Compute(len);
            CopyOut(i, len);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t progress, uint32_t len)
    {
        AscendC::LocalTensor<T> in = inQueue.AllocTensor<T>();
        uint64_t offset = static_cast<uint64_t>(progress) * tileLength;
        if ((len * sizeof(T)) % 32 == 0) {
            AscendC::DataCopy(in, xGm[offset], len);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
            AscendC::DataCopyPad(in, xGm[offset], copyParams, padParams);
        }
        inQueue.EnQue(in);
    }
    // y = f(x) on `len` elements of the compute type; y may be x.
    __aicore__ inline void Calc(const AscendC::LocalTensor<C>& y, const AscendC::LocalTensor<C>& x, uint32_t len)
    {
        AscendC::LocalTensor<uint8_t> tmp = workBuf.Get<uint8_t>();
        AscendC::Erf(y, x, tmp, len);
    }
    __aicore__ inline void Compute(uint32_t len)
    {
        AscendC::LocalTensor<T> in = inQueue.DeQue<T>();
        AscendC::LocalTensor<T> out = outQueue.AllocTensor<T>();
        if constexpr (COMPUTE_IN_FLOAT) {
            AscendC::LocalTensor<float> f = floatBuf.Get<float>();
            AscendC::Cast(f, in, AscendC::RoundMode::CAST_NONE, len);
            Calc(f, f, len);
            AscendC::Cast(out, f, AscendC::RoundMode::CAST_RINT, len);
        } else {
            Calc(out, in, len);
        }
        outQueue.EnQue<T>(out);
        inQueue.FreeTensor(in);
    }
    __aicore__ inline void CopyOut(uint32_t progress, uint32_t len)
    {
        AscendC::LocalTensor<T> out = outQueue.DeQue<T>();
        uint64_t offset = static_cast<uint64_t>(progress) * tileLength;
        if ((len * sizeof(T)) % 32 == 0) {
            AscendC::DataCopy(yGm[offset], out, len);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[offset], out, copyParams);
        }
        outQueue.FreeTensor(out);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> floatBuf, workBuf;
    AscendC::GlobalTensor<T> xGm, yGm;
    uint32_t blockLength = 0;
    uint32_t tileLength = 0;
    uint32_t tileNum = 0;
};

extern "C" __global__ __aicore__ void erf_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelErf<DTYPE_X> op;
    op.Init(x, y, tilingData);
    op.Process();
}
