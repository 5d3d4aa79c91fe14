#include "kernel_operator.h"

// bfloat16 goes through float in a temporary fetched inside an `if constexpr` branch.
template <typename T>
class KernelNegate {
    static constexpr bool IN_FLOAT = std::is_same_v<T, bfloat16_t>;

public:
    __aicore__ inline void Init(uint32_t n)
    {
        pipe.InitBuffer(inQueue, 1, n * sizeof(T));
        pipe.InitBuffer(outQueue, 1, n * sizeof(T));
        if constexpr (IN_FLOAT) {
            pipe.InitBuffer(floatBuf, 1, n * sizeof(float));
        }
        this->n = n;
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<T> x = inQueue.DeQue<T>();
        AscendC::LocalTensor<T> y = outQueue.AllocTensor<T>();
        if constexpr (IN_FLOAT) {
            AscendC::LocalTensor<float> xFloat = floatBuf.AllocTensor<float>();
            AscendC::Cast(xFloat, x, AscendC::RoundMode::CAST_NONE, n);
            AscendC::Muls(xFloat, xFloat, -1.0f, n);
            AscendC::Cast(y, xFloat, AscendC::RoundMode::CAST_RINT, n);
            floatBuf.FreeTensor(xFloat);
        } else {
            AscendC::Muls(y, x, static_cast<T>(-1), n);
        }
        outQueue.EnQue<T>(y);
        inQueue.FreeTensor(x);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueue;
    AscendC::TQue<AscendC::QuePosition::VECCALC, 1> floatBuf;
    uint32_t n = 0;
};

extern "C" __global__ __aicore__ void negate(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelNegate<bfloat16_t> op;
    op.Init(64);
    op.Compute();
}
