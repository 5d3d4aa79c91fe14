#include <type_traits>
#include "kernel_operator.h"

// The float copy is set up for 16-bit dtypes only, but fetched whatever the dtype.
template <typename T>
class KernelTwice {
public:
    __aicore__ inline void Init(uint32_t n)
    {
        pipe.InitBuffer(xBuf, n * sizeof(T));
        if constexpr (!std::is_same_v<T, float>) {
            pipe.InitBuffer(floatBuf, n * sizeof(float));
        }
        this->n = n;
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<T> x = xBuf.Get<T>();
        AscendC::LocalTensor<float> xf = floatBuf.Get<float>();
        if constexpr (!std::is_same_v<T, float>) {
            AscendC::Cast(xf, x, AscendC::RoundMode::CAST_NONE, n);
            AscendC::Muls(xf, xf, 2.0f, n);
            AscendC::Cast(x, xf, AscendC::RoundMode::CAST_RINT, n);
        } else {
            AscendC::Muls(x, x, 2.0f, n);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> xBuf, floatBuf;
    uint32_t n = 0;
};

extern "C" __global__ __aicore__ void twice(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelTwice<half> op;
    op.Init(128);
    op.Compute();
}
