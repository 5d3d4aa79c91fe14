#include "kernel_operator.h"

// One declaration holds a temporary (`tmpBuf`, fetched once in Compute) and an array of TBufs
// (`padBuf`, one per tile slot). Only the temporary becomes a queue; the array keeps its
// bound in its own declaration.
constexpr int32_t SLOTS = 2;

class KernelScale {
public:
    __aicore__ inline void Init(uint32_t n)
    {
        pipe.InitBuffer(inQueue, 1, n * sizeof(float));
        pipe.InitBuffer(outQueue, 1, n * sizeof(float));
        pipe.InitBuffer(tmpBuf, n * sizeof(float));
        for (int32_t i = 0; i < SLOTS; ++i) {
            pipe.InitBuffer(padBuf[i], 32);
        }
        this->n = n;
    }
    __aicore__ inline void Process()
    {
        Compute();
    }

private:
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<float> x = inQueue.DeQue<float>();
        AscendC::LocalTensor<float> y = outQueue.AllocTensor<float>();
        AscendC::LocalTensor<float> tmp = tmpBuf.Get<float>();
        AscendC::Muls(tmp, x, 2.0f, n);
        AscendC::Add(y, tmp, x, n);
        outQueue.EnQue<float>(y);
        inQueue.FreeTensor(x);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueue;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> tmpBuf, padBuf[SLOTS];
    uint32_t n = 0;
};

extern "C" __global__ __aicore__ void scale(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelScale op;
    op.Init(256);
    op.Process();
}
