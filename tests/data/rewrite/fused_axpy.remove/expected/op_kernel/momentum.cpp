#include "kernel_operator.h"

extern "C" __global__ __aicore__ void momentum(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> gBuf, bBuf;
    pipe.InitBuffer(gBuf, 256);
    pipe.InitBuffer(bBuf, 256);
    AscendC::LocalTensor<float> g = gBuf.Get<float>();
    AscendC::LocalTensor<float> b = bBuf.Get<float>();
    AscendC::Muls(g, g, 0.9f, 64);
    AscendC::Add(b, b, g, 64);
    AscendC::Muls(b, b, 0.5f, 64);
}
