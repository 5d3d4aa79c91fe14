#include "kernel_operator.h"

// The buffers are set up by a helper handed the kernel function's pipe.
class KernelHalve {
public:
    __aicore__ inline void InitBuffers(AscendC::TPipe* pipe, uint32_t len)
    {
        len_ = len;
        pipe->InitBuffer(outQueue, 2, len * sizeof(float));
        pipe->InitBuffer(scratch, len * sizeof(float));
    }
    __aicore__ inline void Compute(const AscendC::LocalTensor<float>& x)
    {
        AscendC::LocalTensor<float> y = outQueue.AllocTensor<float>();
        AscendC::LocalTensor<float> s = scratch.Get<float>();
        AscendC::Muls(s, x, 0.5f, len_);
        AscendC::Adds(y, s, 0.0f, len_);
        outQueue.EnQue(y);
    }

private:
    AscendC::TQue<AscendC::QuePosition::VECOUT, 2> outQueue;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> scratch;
    uint32_t len_ = 0;
};

extern "C" __global__ __aicore__ void halve(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    AscendC::TPipe pipe;
    KernelHalve op;
    op.InitBuffers(&pipe, 256);
}
