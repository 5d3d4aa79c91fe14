#include <type_traits>
#include "kernel_operator.h"

// mish(x) = x tanh(softplus(x)) = x n / (n + 2) with n = e^x (e^x + 2), x clamped at 20 for
// float: float16's exp already overflows above 11.09, and then n / (n + 2) is inf / inf.
template <typename T>
class KernelMish2 {
public:
    __aicore__ inline void Init(uint32_t n)
    {
        pipe.InitBuffer(xBuf, n * sizeof(T));
        pipe.InitBuffer(calcBuf, 3 * n * sizeof(float));
        this->n = n;
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<T> x = xBuf.Get<T>();
        AscendC::LocalTensor<float> xf = calcBuf.Get<float>();
        AscendC::LocalTensor<float> w0 = xf[n];
        AscendC::LocalTensor<float> w1 = xf[2 * n];
        if constexpr (std::is_same_v<T, float>) {
            AscendC::DataCopy(xf, x, n);
        } else {
            AscendC::Cast(xf, x, AscendC::RoundMode::CAST_NONE, n);
        }
        AscendC::Mins(w0, xf, 20.0f, n);
        AscendC::Exp(w0, w0, n);
        AscendC::Adds(w1, w0, 2.0f, n);
        AscendC::Mul(w0, w0, w1, n);
        AscendC::Adds(w1, w0, 2.0f, n);
        AscendC::Div(w0, w0, w1, n);
        AscendC::Mul(xf, w0, xf, n);
        if constexpr (!std::is_same_v<T, float>) {
            AscendC::Cast(x, xf, AscendC::RoundMode::CAST_RINT, n);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> xBuf, calcBuf;
    uint32_t n = 0;
};

extern "C" __global__ __aicore__ void mish2(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelMish2<half> op;
    op.Init(128);
    op.Compute();
}
