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
            {
                AscendC::PipeBarrier<PIPE_ALL>();
                using aocCalc = std::conditional_t<std::is_integral_v<half>, int64_t, std::conditional_t<(sizeof(half) < 4), float, half>>;
                const aocCalc aocS = static_cast<aocCalc>(static_cast<half>((half)1.0));
                for (uint32_t aocI = 0; aocI < static_cast<uint32_t>(n); ++aocI) {
                    xLocal.SetValue(aocI, static_cast<half>(static_cast<aocCalc>(xLocal.GetValue(aocI)) + aocS));
                }
                AscendC::PipeBarrier<PIPE_ALL>();
            }
            queue.FreeTensor(xLocal);
        } else {
            AscendC::LocalTensor<T> xLocal = queue.DeQue<T>();
            {
                AscendC::PipeBarrier<PIPE_ALL>();
                using aocCalc = std::conditional_t<std::is_integral_v<T>, int64_t, std::conditional_t<(sizeof(T) < 4), float, T>>;
                const aocCalc aocS = static_cast<aocCalc>(static_cast<T>((T)1.0));
                for (uint32_t aocI = 0; aocI < static_cast<uint32_t>(n); ++aocI) {
                    xLocal.SetValue(aocI, static_cast<T>(static_cast<aocCalc>(xLocal.GetValue(aocI)) + aocS));
                }
                AscendC::PipeBarrier<PIPE_ALL>();
            }
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
