// A macro that expands without bound: 2^28 tokens from 28 lines.
// A correct Add (z = x + y) whose one constant no parser can expand in reasonable time or memory.
// Expected: rejected by the API-use check, which cannot judge it within its time and memory limits.
#include "kernel_operator.h"
#define X0 +1
#define X1 X0 X0
#define X2 X1 X1
#define X3 X2 X2
#define X4 X3 X3
#define X5 X4 X4
#define X6 X5 X5
#define X7 X6 X6
#define X8 X7 X7
#define X9 X8 X8
#define X10 X9 X9
#define X11 X10 X10
#define X12 X11 X11
#define X13 X12 X12
#define X14 X13 X13
#define X15 X14 X14
#define X16 X15 X15
#define X17 X16 X16
#define X18 X17 X17
#define X19 X18 X18
#define X20 X19 X19
#define X21 X20 X20
#define X22 X21 X21
#define X23 X22 X22
#define X24 X23 X23
#define X25 X24 X24
#define X26 X25 X25
#define X27 X26 X26
#define X28 X27 X27
constexpr long kBomb = 0 X28;

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
        for (uint64_t done = 0; done < blockLength; done += tileLength) {
            uint32_t len = blockLength - done < tileLength ? uint32_t(blockLength - done) : tileLength;
            AscendC::DataCopyExtParams in{1, uint32_t(len * sizeof(DTYPE_X)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<DTYPE_X> pad{false, 0, 0, 0};
            AscendC::LocalTensor<DTYPE_X> xl = inX.AllocTensor<DTYPE_X>();
            AscendC::LocalTensor<DTYPE_Y> yl = inY.AllocTensor<DTYPE_Y>();
            AscendC::DataCopyPad(xl, xGm[done], in, pad);
            AscendC::DataCopyPad(yl, yGm[done], in, pad);
            inX.EnQue(xl);
            inY.EnQue(yl);
            xl = inX.DeQue<DTYPE_X>();
            yl = inY.DeQue<DTYPE_Y>();
            AscendC::LocalTensor<DTYPE_Z> zl = outZ.AllocTensor<DTYPE_Z>();
            AscendC::Add(zl, xl, yl, len);
            outZ.EnQue<DTYPE_Z>(zl);
            inX.FreeTensor(xl);
            inY.FreeTensor(yl);
            zl = outZ.DeQue<DTYPE_Z>();
            AscendC::DataCopyPad(zGm[done], zl, in);
            outZ.FreeTensor(zl);
        }
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
