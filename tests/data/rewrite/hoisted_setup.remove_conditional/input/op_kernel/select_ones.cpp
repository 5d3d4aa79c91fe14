#include "kernel_operator.h"

template <typename T>
class KernelSelectOnes {
public:
    __aicore__ inline void Init(uint32_t tiles, uint32_t tileLength)
    {
        this->tiles = tiles;
        this->tileLength = tileLength;
        pipe.InitBuffer(xBuf, tileLength * sizeof(T));
        pipe.InitBuffer(onesBuf, tileLength * sizeof(half));
        // The "true" operand, filled once for all tiles, when the tiles use it.
        if (tiles > 0) {
            AscendC::Duplicate(onesBuf.Get<half>(), static_cast<half>(1.0f), this->tileLength);
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
        AscendC::LocalTensor<half> ones = onesBuf.Get<half>();
        AscendC::LocalTensor<T> x = xBuf.Get<T>();
        AscendC::Add(x, x, ones, tileLength);
    }

    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> xBuf, onesBuf;
    uint32_t tiles = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void select_ones(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelSelectOnes<half> op;
    op.Init(4, 128);
    op.Process();
}
