#include <type_traits>
#include "kernel_operator.h"

// A float-only helper outside the class.
__aicore__ inline void Sigmoid(const AscendC::LocalTensor<float>& y, const AscendC::LocalTensor<float>& x,
                               const AscendC::LocalTensor<float>& work, uint32_t n)
{
    AscendC::Muls(work, x, -1.0f, n);
    AscendC::Exp(work, work, n);
    AscendC::Adds(work, work, 1.0f, n);
    AscendC::Reciprocal(y, work, n);
}

template <typename T>
class KernelSig {
public:
    template <typename Tiling>
    __aicore__ inline void Init(const Tiling& t)
    {
        constexpr uint32_t floatTiles = 1 + (std::is_same_v<T, float> ? 0 : 2);
        pipe.InitBuffer(xBuf, t.n * sizeof(T));
        pipe.InitBuffer(calcBuf, floatTiles * t.n * sizeof(float));
        this->n = t.n;
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<T> x = xBuf.Get<T>();
        AscendC::LocalTensor<float> xf;
        AscendC::LocalTensor<float> yf;
        AscendC::LocalTensor<float> work;
        if constexpr (std::is_same_v<T, float>) {
            xf = x;
            yf = x;
            work = calcBuf.Get<float>();
        } else {
            xf = calcBuf.Get<float>();
            yf = xf[n];
            work = xf[2 * n];
            AscendC::Cast(xf, x, AscendC::RoundMode::CAST_NONE, n);
        }
        Sigmoid(yf, xf, work, n);
        if constexpr (!std::is_same_v<T, float>) {
            AscendC::Cast(x, yf, AscendC::RoundMode::CAST_RINT, n);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> xBuf, calcBuf;
    uint32_t n = 0;
};

struct SigTiling {
    uint32_t n;
};

extern "C" __global__ __aicore__ void sig(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelSig<half> op;
    op.Init(SigTiling{128});
    op.Compute();
}
