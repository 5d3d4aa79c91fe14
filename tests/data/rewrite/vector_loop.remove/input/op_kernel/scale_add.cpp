#include "kernel_operator.h"

// z = |x + y| * scale on one tile; Exp is not turned into a loop (its lanes are not expf's).
template <typename T>
class KernelScaleAdd {
public:
    __aicore__ inline void Init(uint32_t n, T scale)
    {
        pipe.InitBuffer(inQueueX, 1, n * sizeof(T));
        pipe.InitBuffer(inQueueY, 1, n * sizeof(T));
        pipe.InitBuffer(outQueueZ, 1, n * sizeof(T));
        this->n = n;
        this->scale = scale;
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = inQueueY.DeQue<T>();
        AscendC::LocalTensor<T> zLocal = outQueueZ.AllocTensor<T>();
        AscendC::Add(zLocal, xLocal, yLocal, n);
        AscendC::Abs(zLocal, zLocal, n);
        AscendC::Muls(zLocal, zLocal, scale, n);
        AscendC::Exp(xLocal, xLocal, n);
        outQueueZ.EnQue<T>(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueX, inQueueY;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueueZ;
    uint32_t n = 0;
    T scale;
};

extern "C" __global__ __aicore__ void scale_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelScaleAdd<half> op;
    op.Init(256, half(2.0f));
    op.Compute();
}
