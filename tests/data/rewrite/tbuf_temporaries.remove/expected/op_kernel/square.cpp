#include "kernel_operator.h"

class KernelSquare {
public:
    __aicore__ inline void Init(uint32_t n)
    {
        pipe.InitBuffer(outQueue, 1, n * sizeof(float));
        pipe.InitBuffer(workBuf, 1, n * sizeof(float));
        this->n = n;
    }
    __aicore__ inline void Compute(const AscendC::LocalTensor<float>& x)
    {
        AscendC::LocalTensor<float> y = outQueue.AllocTensor<float>();
        AscendC::LocalTensor<float> work = workBuf.AllocTensor<float>();
        AscendC::Mul(work, x, x, n);
        AscendC::Adds(y, work, 1.0f, n);
        outQueue.EnQue(y);
        workBuf.FreeTensor(work);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueue;
    AscendC::TQue<AscendC::QuePosition::VECCALC, 1> workBuf;
    uint32_t n = 0;
};

extern "C" __global__ __aicore__ void square(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelSquare op;
    op.Init(64);
}
