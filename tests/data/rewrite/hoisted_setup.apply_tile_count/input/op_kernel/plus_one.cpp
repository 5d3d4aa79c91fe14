#include "kernel_operator.h"

// The last tile is shorter: the fill's count is set per tile by Process.
class KernelPlusOne {
public:
    __aicore__ inline void Init(uint32_t tiles, uint32_t tileLength, uint32_t lastLength)
    {
        this->tiles = tiles;
        this->tileLength = tileLength;
        this->lastLength = lastLength;
        pipe.InitBuffer(xBuf, tileLength * sizeof(float));
        pipe.InitBuffer(onesBuf, tileLength * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        count = tileLength;
        for (uint32_t i = 0; i + 1 < tiles; i++) {
            Compute(i);
        }
        count = lastLength;
        Compute(tiles - 1);
    }

private:
    __aicore__ inline void Compute(uint32_t i)
    {
        AscendC::LocalTensor<float> ones = onesBuf.Get<float>();
        AscendC::Duplicate(ones, 1.0f, count);
        AscendC::LocalTensor<float> x = xBuf.Get<float>();
        AscendC::Add(x, x, ones, count);
    }

    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> xBuf, onesBuf;
    uint32_t tiles = 0;
    uint32_t tileLength = 0;
    uint32_t lastLength = 0;
    uint32_t count = 0;
};

extern "C" __global__ __aicore__ void plus_one(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelPlusOne op;
    op.Init(4, 128, 64);
    op.Process();
}
