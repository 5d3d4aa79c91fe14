#include "kernel_operator.h"

extern "C" __global__ __aicore__ void momentum(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> gBuf, bBuf, tBuf;
    pipe.InitBuffer(gBuf, 256);
    pipe.InitBuffer(bBuf, 256);
    pipe.InitBuffer(tBuf, 256);
    AscendC::LocalTensor<float> g = gBuf.Get<float>();
    AscendC::LocalTensor<float> b = bBuf.Get<float>();
    AscendC::LocalTensor<float> scaled = tBuf.Get<float>();
    float rate = 0.9f;
    AscendC::Axpy(b, g, rate, 64);
    AscendC::Muls(b, b, 0.5f, 64);
}
