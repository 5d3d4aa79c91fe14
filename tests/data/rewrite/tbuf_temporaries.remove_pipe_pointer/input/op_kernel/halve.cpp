#include "kernel_operator.h"

// The pipe lives in the kernel function; the class keeps a pointer to it.
class KernelHalve {
public:
    __aicore__ inline void Init(uint32_t len, AscendC::TPipe* pipeIn)
    {
        pipe = pipeIn;
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
    AscendC::TPipe* pipe = nullptr;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 2> outQueue;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> scratch;
    uint32_t len_ = 0;
};

extern "C" __global__ __aicore__ void halve(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    AscendC::TPipe pipe;
    KernelHalve op;
    op.Init(256, &pipe);
}
