#include <type_traits>
#include "kernel_operator.h"

// A running average m' = beta m + (1 - beta) g: the two terms cancel where m and g have
// opposite signs.
template <typename T>
class KernelEma {
    static constexpr bool COMPUTE_IN_FLOAT = !std::is_same_v<T, float>;

public:
    __aicore__ inline void Init(uint32_t n, float beta)
    {
        pipe.InitBuffer(mBuf, n * sizeof(T));
        pipe.InitBuffer(gBuf, n * sizeof(T));
        if constexpr (COMPUTE_IN_FLOAT) {
            pipe.InitBuffer(floatBuf, 2 * n * sizeof(float));
        }
        this->n = n;
        this->beta = beta;
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<T> m = mBuf.Get<T>();
        AscendC::LocalTensor<T> g = gBuf.Get<T>();
        if constexpr (COMPUTE_IN_FLOAT) {
            AscendC::LocalTensor<float> mf = floatBuf.Get<float>();
            AscendC::LocalTensor<float> gf = mf[n];
            AscendC::Cast(mf, m, AscendC::RoundMode::CAST_NONE, n);
            AscendC::Cast(gf, g, AscendC::RoundMode::CAST_NONE, n);
            Update(mf, gf);
            AscendC::Cast(m, mf, AscendC::RoundMode::CAST_RINT, n);
        } else {
            Update(m, g);
        }
    }

private:
    template <typename U>
    __aicore__ inline void Update(const AscendC::LocalTensor<U>& mv, const AscendC::LocalTensor<U>& gv)
    {
        AscendC::Muls(mv, mv, static_cast<U>(beta), n);
        AscendC::Axpy(mv, gv, static_cast<U>(1.0f - beta), n);
    }

    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> mBuf, gBuf, floatBuf;
    uint32_t n = 0;
    float beta = 0.9f;
};

extern "C" __global__ __aicore__ void ema(GM_ADDR m, GM_ADDR g, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelEma<half> op;
    op.Init(128, 0.9f);
    op.Compute();
}
