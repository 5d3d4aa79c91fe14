#include <type_traits>
#include "kernel_operator.h"

template <typename T>
class KernelRowSum {
public:
    __aicore__ inline void Init(uint32_t n)
    {
        pipe.InitBuffer(xBuf, n * sizeof(T));
        pipe.InitBuffer(calcBuf, 2 * n * sizeof(float));
        this->n = n;
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<T> x = xBuf.Get<T>();
        AscendC::LocalTensor<float> xf = calcBuf.Get<float>();
        AscendC::LocalTensor<float> work = xf[n];
        if constexpr (std::is_same_v<T, float>) {
            AscendC::DataCopy(xf, x, n);
        } else {
            AscendC::Cast(xf, x, AscendC::RoundMode::CAST_NONE, n);
        }
        AscendC::ReduceSum(xf, xf, work, n);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> xBuf, calcBuf;
    uint32_t n = 0;
};

extern "C" __global__ __aicore__ void rsum(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelRowSum<half> op;
    op.Init(128);
    op.Compute();
}
