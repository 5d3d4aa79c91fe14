#include "kernel_operator.h"

// A running sum over the tiles, zeroed once before them: not a constant the tiles could each
// set up again.
template <typename T>
class KernelTileSum {
public:
    __aicore__ inline void Init(uint32_t tiles, uint32_t tileLength)
    {
        this->tiles = tiles;
        this->tileLength = tileLength;
        pipe.InitBuffer(xBuf, tileLength * sizeof(T));
        pipe.InitBuffer(accBuf, tileLength * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        AscendC::Duplicate(accBuf.Get<T>(), static_cast<T>(0.0f), this->tileLength);
        for (uint32_t i = 0; i < tiles; i++) {
            Compute(i);
        }
    }

private:
    __aicore__ inline void Compute(uint32_t i)
    {
        AscendC::LocalTensor<T> acc = accBuf.Get<T>();
        AscendC::LocalTensor<T> x = xBuf.Get<T>();
        AscendC::Add(acc, acc, x, tileLength);
    }

    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> xBuf, accBuf;
    uint32_t tiles = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void tile_sum(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelTileSum<half> op;
    op.Init(4, 128);
    op.Process();
}
