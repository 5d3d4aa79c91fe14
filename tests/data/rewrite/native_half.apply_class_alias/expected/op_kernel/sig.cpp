#include <type_traits>
#include "kernel_operator.h"

template <typename TYPE_X>
class KernelSig {
    using T = TYPE_X;
    using ComputeT = std::conditional_t<std::is_same_v<T, bfloat16_t>, float, T>;  // float16 computes natively

public:
    template <typename Tiling>
    __aicore__ inline void Init(const Tiling& t)
    {
        constexpr uint32_t floatTiles = 1 + (std::is_same_v<T, ComputeT> ? 0 : 2);
        pipe.InitBuffer(xBuf, t.n * sizeof(T));
        pipe.InitBuffer(calcBuf, floatTiles * t.n * sizeof(ComputeT));
        this->n = t.n;
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<T> x = xBuf.Get<T>();
        AscendC::LocalTensor<ComputeT> xf;
        AscendC::LocalTensor<ComputeT> yf;
        AscendC::LocalTensor<ComputeT> work;
        if constexpr (std::is_same_v<T, ComputeT>) {
            xf = x;
            yf = x;
            work = calcBuf.Get<ComputeT>();
        } else {
            xf = calcBuf.Get<ComputeT>();
            yf = xf[n];
            work = xf[2 * n];
            AscendC::Cast(xf, x, AscendC::RoundMode::CAST_NONE, n);
        }
        Sigmoid(yf, xf, work);
        if constexpr (!std::is_same_v<T, ComputeT>) {
            AscendC::Cast(x, yf, AscendC::RoundMode::CAST_RINT, n);
        }
    }

private:
    __aicore__ inline void Sigmoid(const AscendC::LocalTensor<ComputeT>& y, const AscendC::LocalTensor<ComputeT>& x,
                                   const AscendC::LocalTensor<ComputeT>& work)
    {
        AscendC::Muls(work, x, -1.0f, n);
        AscendC::Exp(work, work, n);
        AscendC::Adds(work, work, 1.0f, n);
        AscendC::Reciprocal(y, work, n);
    }

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
