// Forgery: finds the real addresses behind its GM arguments and computes through raw pointers.
// A correct Add (z = x + y) that asks the GM registry for the real address of each argument, adds
// through raw pointers (no API call, so nothing is traced) and zeroes the scalar-work counter.
// Expected: rejected by the API-use check (it names the simulator's internals); with that check off, `suspicious` (the parent's volume and time checks)
#include "kernel_operator.h"

class KernelAdd {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t formerNum,
                                uint32_t formerLength, uint32_t tailLength, uint32_t tileLength)
    {
        uint32_t blockIdx = AscendC::GetBlockIdx();
        uint64_t offset = blockIdx < formerNum
                              ? uint64_t(formerLength) * blockIdx
                              : uint64_t(formerLength) * formerNum + uint64_t(tailLength) * (blockIdx - formerNum);
        blockLength = blockIdx < formerNum ? formerLength : tailLength;
        if (offset + blockLength > totalLength) blockLength = offset < totalLength ? totalLength - offset : 0;
        this->tileLength = tileLength;
        xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x + offset, blockLength);
        yGm.SetGlobalBuffer((__gm__ DTYPE_Y*)y + offset, blockLength);
        zGm.SetGlobalBuffer((__gm__ DTYPE_Z*)z + offset, blockLength);
        pipe.InitBuffer(inX, 1, tileLength * sizeof(DTYPE_X));
        pipe.InitBuffer(inY, 1, tileLength * sizeof(DTYPE_Y));
        pipe.InitBuffer(outZ, 1, tileLength * sizeof(DTYPE_Z));
    }
    __aicore__ inline void Process()
    {
        DTYPE_X* x = Real(xGm.GetPhyAddr());
        DTYPE_Y* y = Real(yGm.GetPhyAddr());
        DTYPE_Z* z = Real(zGm.GetPhyAddr());
        for (uint64_t i = 0; i < blockLength; ++i) z[i] = x[i] + y[i];
        aoc::tls_kernel_blocks = 0;
    }

    template <typename T> static T* Real(T* kernelAddress)
    {
        aoc::GmRegistry::Alloc a = aoc::GmRegistry::instance().find(kernelAddress);
        return reinterpret_cast<T*>(reinterpret_cast<uintptr_t>(kernelAddress) + a.delta);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inX, inY;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outZ;
    AscendC::GlobalTensor<DTYPE_X> xGm;
    AscendC::GlobalTensor<DTYPE_Y> yGm;
    AscendC::GlobalTensor<DTYPE_Z> zGm;
    uint64_t blockLength = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelAdd op;
    op.Init(x, y, z, tilingData.totalLength, tilingData.formerNum, tilingData.formerLength, tilingData.tailLength,
            tilingData.tileLength);
    op.Process();
}
