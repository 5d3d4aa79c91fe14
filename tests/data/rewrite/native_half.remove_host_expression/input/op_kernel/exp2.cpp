#include <type_traits>
#include "kernel_operator.h"

template <typename T>
class KernelExp2 {
    static constexpr bool COMPUTE_IN_FLOAT = std::is_same_v<T, bfloat16_t>;

public:
    __aicore__ inline void Init(uint32_t n)
    {
        pipe.InitBuffer(xBuf, n * sizeof(T));
        if constexpr (COMPUTE_IN_FLOAT) {
            pipe.InitBuffer(floatBuf, n * sizeof(float));
        }
        this->n = n;
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<T> x = xBuf.Get<T>();
        if constexpr (COMPUTE_IN_FLOAT) {
            AscendC::LocalTensor<float> f = floatBuf.Get<float>();
            AscendC::Cast(f, x, AscendC::RoundMode::CAST_NONE, n);
            AscendC::Exp(f, f, n);
            AscendC::Cast(x, f, AscendC::RoundMode::CAST_RINT, n);
        } else {
            AscendC::Exp(x, x, n);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> xBuf, floatBuf;
    uint32_t n = 0;
};

extern "C" __global__ __aicore__ void exp2(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelExp2<half> op;
    op.Init(128);
    op.Compute();
}
