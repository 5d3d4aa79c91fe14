#include "kernel_operator.h"

// One name, two element types: 16-bit data is handled as half, the rest as T.
template <typename T>
class KernelBump {
public:
    __aicore__ inline void Init(uint32_t n)
    {
        pipe.InitBuffer(queue, 1, n * sizeof(T));
        this->n = n;
    }
    __aicore__ inline void Compute()
    {
        if constexpr (sizeof(T) == 2) {
            AscendC::LocalTensor<half> xLocal = queue.DeQue<half>();
            AscendC::Adds(xLocal, xLocal, (half)1.0, n);
            queue.FreeTensor(xLocal);
        } else {
            AscendC::LocalTensor<T> xLocal = queue.DeQue<T>();
            AscendC::Adds(xLocal, xLocal, (T)1.0, n);
            queue.FreeTensor(xLocal);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> queue;
    uint32_t n = 0;
};

extern "C" __global__ __aicore__ void bump(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelBump<bfloat16_t> op;
    op.Init(256);
    op.Compute();
}
