#include "kernel_operator.h"

// z = |x + y| * scale on one tile; Exp is not turned into a loop (its lanes are not expf's).
template <typename T>
class KernelScaleAdd {
public:
    __aicore__ inline void Init(uint32_t n, T scale)
    {
        pipe.InitBuffer(inQueueX, 1, n * sizeof(T));
        pipe.InitBuffer(inQueueY, 1, n * sizeof(T));
        pipe.InitBuffer(outQueueZ, 1, n * sizeof(T));
        this->n = n;
        this->scale = scale;
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = inQueueY.DeQue<T>();
        AscendC::LocalTensor<T> zLocal = outQueueZ.AllocTensor<T>();
        {
            AscendC::PipeBarrier<PIPE_ALL>();
            using aocCalc = std::conditional_t<std::is_integral_v<T>, int64_t, std::conditional_t<(sizeof(T) < 4), float, T>>;
            for (uint32_t aocI = 0; aocI < static_cast<uint32_t>(n); ++aocI) {
                zLocal.SetValue(aocI, static_cast<T>(static_cast<aocCalc>(xLocal.GetValue(aocI)) + static_cast<aocCalc>(yLocal.GetValue(aocI))));
            }
            AscendC::PipeBarrier<PIPE_ALL>();
        }
        {
            AscendC::PipeBarrier<PIPE_ALL>();
            using aocCalc = std::conditional_t<std::is_integral_v<T>, int64_t, std::conditional_t<(sizeof(T) < 4), float, T>>;
            for (uint32_t aocI = 0; aocI < static_cast<uint32_t>(n); ++aocI) {
                const aocCalc aocA = static_cast<aocCalc>(zLocal.GetValue(aocI));
                zLocal.SetValue(aocI, static_cast<T>(aocA < aocCalc(0) ? -aocA : (aocA == aocCalc(0) ? aocCalc(0) : aocA)));
            }
            AscendC::PipeBarrier<PIPE_ALL>();
        }
        {
            AscendC::PipeBarrier<PIPE_ALL>();
            using aocCalc = std::conditional_t<std::is_integral_v<T>, int64_t, std::conditional_t<(sizeof(T) < 4), float, T>>;
            const aocCalc aocS = static_cast<aocCalc>(static_cast<T>(scale));
            for (uint32_t aocI = 0; aocI < static_cast<uint32_t>(n); ++aocI) {
                zLocal.SetValue(aocI, static_cast<T>(static_cast<aocCalc>(zLocal.GetValue(aocI)) * aocS));
            }
            AscendC::PipeBarrier<PIPE_ALL>();
        }
        AscendC::Exp(xLocal, xLocal, n);
        outQueueZ.EnQue<T>(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueX, inQueueY;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueueZ;
    uint32_t n = 0;
    T scale;
};

extern "C" __global__ __aicore__ void scale_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelScaleAdd<half> op;
    op.Init(256, half(2.0f));
    op.Compute();
}
