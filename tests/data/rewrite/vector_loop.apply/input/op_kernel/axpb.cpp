#include "kernel_operator.h"

// z = (x + y) * scale, written element by element.
class KernelAxpb {
public:
    __aicore__ inline void Init(uint32_t n, float scale)
    {
        pipe.InitBuffer(inQueueX, 1, n * sizeof(float));
        pipe.InitBuffer(inQueueY, 1, n * sizeof(float));
        pipe.InitBuffer(outQueueZ, 1, n * sizeof(float));
        this->n = n;
        this->scale = scale;
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        AscendC::LocalTensor<float> yLocal = inQueueY.DeQue<float>();
        AscendC::LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
        for (uint32_t i = 0; i < n; i++) {
            zLocal.SetValue(i, xLocal.GetValue(i) + yLocal.GetValue(i));
        }
        for (uint32_t i = 0; i < n; ++i) {
            zLocal.SetValue(i, scale * zLocal.GetValue(i));
        }
        outQueueZ.EnQue<float>(zLocal);
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
    KernelAxpb op;
    op.Init(256, 0.5f);
    op.Compute();
}
