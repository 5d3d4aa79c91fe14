#include "kernel_operator.h"

// z = (x + y) * scale element by element, in float (not T) and with a float scale: the
// vector instructions would compute in T and round the scale to T first.
template <typename T>
class KernelAxpb {
public:
    __aicore__ inline void Init(uint32_t n, float scale)
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
        for (uint32_t i = 0; i < n; i++) {
            zLocal.SetValue(i, static_cast<float>(xLocal.GetValue(i)) + static_cast<float>(yLocal.GetValue(i)));
        }
        for (uint32_t i = 0; i < n; ++i) {
            zLocal.SetValue(i, scale * zLocal.GetValue(i));
        }
        outQueueZ.EnQue<T>(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueX, inQueueY;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueueZ;
    uint32_t n = 0;
    float scale = 1.0f;
};

extern "C" __global__ __aicore__ void axpb(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelAxpb<half> op;
    op.Init(256, 0.5f);
    op.Compute();
}
