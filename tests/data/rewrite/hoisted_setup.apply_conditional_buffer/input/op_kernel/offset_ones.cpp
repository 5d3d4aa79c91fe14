#include "kernel_operator.h"

// Only the half variant needs the ones buffer; it is set up and filled under the same condition.
template <typename T>
class KernelOffsetOnes {
public:
    __aicore__ inline void Init(uint32_t tiles, uint32_t tileLength)
    {
        this->tiles = tiles;
        this->tileLength = tileLength;
        pipe.InitBuffer(xBuf, tileLength * sizeof(T));
        if constexpr (std::is_same_v<T, half>) {
            pipe.InitBuffer(onesBuf, tileLength * sizeof(half));
        }
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < tiles; i++) {
            Compute(i);
        }
    }

private:
    __aicore__ inline void Compute(uint32_t i)
    {
        AscendC::LocalTensor<T> x = xBuf.Get<T>();
        if constexpr (std::is_same_v<T, half>) {
            AscendC::LocalTensor<half> ones = onesBuf.Get<half>();
            AscendC::Duplicate(ones, static_cast<half>(1.0f), tileLength);
            AscendC::Add(x, x, ones, tileLength);
        }
    }

    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> xBuf, onesBuf;
    uint32_t tiles = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void offset_ones(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelOffsetOnes<float> op;
    op.Init(4, 128);
    op.Process();
}
