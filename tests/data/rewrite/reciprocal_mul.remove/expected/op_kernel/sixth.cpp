#include "kernel_operator.h"

extern "C" __global__ __aicore__ void sixth(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> xBuf, yBuf;
    pipe.InitBuffer(xBuf, 256);
    pipe.InitBuffer(yBuf, 256);
    AscendC::LocalTensor<float> xf = xBuf.Get<float>();
    AscendC::LocalTensor<float> yf = yBuf.Get<float>();
    AscendC::Duplicate(yf, 6.0f, 64);
    AscendC::Div(yf, xf, yf, 64);
    AscendC::Muls(yf, yf, 0.5f, 64);
}
