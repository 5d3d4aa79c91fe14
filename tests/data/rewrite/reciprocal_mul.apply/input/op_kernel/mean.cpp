#include "kernel_operator.h"

extern "C" __global__ __aicore__ void mean(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> xBuf, yBuf, cBuf;
    pipe.InitBuffer(xBuf, 256);
    pipe.InitBuffer(yBuf, 256);
    pipe.InitBuffer(cBuf, 256);
    AscendC::LocalTensor<float> xf = xBuf.Get<float>();
    AscendC::LocalTensor<float> yf = yBuf.Get<float>();
    AscendC::LocalTensor<float> count = cBuf.Get<float>();
    float n = 64.0f;
    AscendC::Duplicate(count, n, 64);
    AscendC::Div(yf, xf, count, 64);
}
