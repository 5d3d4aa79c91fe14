#include "kernel_operator.h"

extern "C" __global__ __aicore__ void square(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 64);
    yGm.SetGlobalBuffer((__gm__ float*)y, 64);
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::DataCopy(t, xGm, 64);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Mul(t, t, t, 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yGm, t, 64);
}
