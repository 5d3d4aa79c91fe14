#include "kernel_operator.h"

template <typename T>
class KernelScale2 {
public:
    __aicore__ inline void Init(uint32_t n, T factor)
    {
        pipe.InitBuffer(xBuf, n * sizeof(T));
        pipe.InitBuffer(yBuf, n * sizeof(T));
        pipe.InitBuffer(tmpBuf, n * sizeof(T));
        this->n = n;
        this->factor = factor;
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<T> x = xBuf.Get<T>();
        AscendC::LocalTensor<T> y = yBuf.Get<T>();
        AscendC::LocalTensor<T> factorTensor = tmpBuf.Get<T>();
        AscendC::Duplicate(factorTensor, factor, n);
        AscendC::Muls(y, x, factor, n);
        AscendC::Duplicate<T>(factorTensor, static_cast<T>(1), n);
        AscendC::Maxs(y, y, static_cast<T>(1), n);
        AscendC::Add(x, x, factorTensor, n);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> xBuf, yBuf, tmpBuf;
    uint32_t n = 0;
    T factor{};
};

extern "C" __global__ __aicore__ void scale2(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelScale2<half> op;
    op.Init(128, static_cast<half>(3.0f));
    op.Compute();
}
