#include "kernel_operator.h"

// Two TBufs in one declaration: `index` is fetched in Process (which may return early) and
// in Compute, so it stays a TBuf; `mask` is a temporary of Compute alone.
template <typename T>
class KernelBand {
public:
    __aicore__ inline void Init(uint32_t n)
    {
        pipe.InitBuffer(inQueue, 1, n * sizeof(T));
        pipe.InitBuffer(outQueue, 1, n * sizeof(T));
        pipe.InitBuffer(indexBuf, n * sizeof(float));
        pipe.InitBuffer(maskBuf, (n / 8 + 31) / 32 * 32);
        this->n = n;
    }
    __aicore__ inline void Process()
    {
        if (n == 0) {
            return;
        }
        AscendC::LocalTensor<float> index = indexBuf.Get<float>();
        AscendC::CreateVecIndex(index, 0.0f, n);
        Compute();
    }

private:
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<T> x = inQueue.DeQue<T>();
        AscendC::LocalTensor<T> y = outQueue.AllocTensor<T>();
        AscendC::LocalTensor<float> index = indexBuf.Get<float>();
        AscendC::LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();
        AscendC::CompareScalar(mask, index, 8.0f, AscendC::CMPMODE::LT, n);
        AscendC::Select(y, mask, x, static_cast<T>(0), AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
        outQueue.EnQue<T>(y);
        inQueue.FreeTensor(x);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueue;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> indexBuf, maskBuf;
    uint32_t n = 0;
};

extern "C" __global__ __aicore__ void band(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelBand<float> op;
    op.Init(256);
    op.Process();
}
