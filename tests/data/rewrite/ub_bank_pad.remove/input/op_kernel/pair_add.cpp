#include "kernel_operator.h"

constexpr uint32_t PAD_BYTES = 256;

class KernelPairAdd {
public:
    __aicore__ inline void Init(uint32_t n)
    {
        pipe.InitBuffer(aBuf, n * sizeof(float));
        pipe.InitBuffer(pad, PAD_BYTES);  // shifts b to the other bank groups
        pipe.InitBuffer(bBuf, n * sizeof(float));
        this->n = n;
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> a = aBuf.Get<float>();
        AscendC::LocalTensor<float> b = bBuf.Get<float>();
        AscendC::Add(a, a, b, n);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> aBuf;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> pad;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> bBuf;
    uint32_t n = 0;
};

extern "C" __global__ __aicore__ void pair_add(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelPairAdd op;
    op.Init(64);
    op.Process();
}
