#include "kernel_operator.h"

extern "C" __global__ __aicore__ void momentum(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> gBuf, bBuf;
    pipe.InitBuffer(gBuf, 256);
    pipe.InitBuffer(bBuf, 256);
    AscendC::LocalTensor<float> g = gBuf.Get<float>();
    AscendC::LocalTensor<float> b = bBuf.Get<float>();
    AscendC::Axpy(b, g, 0.9f, 64);
    AscendC::Muls(b, g, 0.5f, 64);  // g is read again
}
