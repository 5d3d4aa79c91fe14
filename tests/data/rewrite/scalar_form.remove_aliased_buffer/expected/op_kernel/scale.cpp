#include "kernel_operator.h"

// Scale's Muls reads x and writes y; one caller passes two tensors of the same buffer, so as
// Duplicate + Mul it would overwrite its input before reading it: it stays a scalar form.
// The Maxs of the kernel reads and writes two different buffers.
template <typename T>
__aicore__ inline void Scale(const AscendC::LocalTensor<T>& y, const AscendC::LocalTensor<T>& x, T a, uint32_t n)
{
    AscendC::Muls(y, x, a, n);
}

extern "C" __global__ __aicore__ void scale(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> xBuf, yBuf;
    pipe.InitBuffer(xBuf, 256);
    pipe.InitBuffer(yBuf, 256);
    AscendC::LocalTensor<float> xs = xBuf.Get<float>();
    AscendC::LocalTensor<float> ys = yBuf.Get<float>();
    AscendC::LocalTensor<float> again = xBuf.Get<float>();
    Scale<float>(ys, xs, 2.0f, 64);
    Scale<float>(again, xs, 3.0f, 64);
    AscendC::Duplicate(ys, 0.0f, 64);
    AscendC::Max(ys, xs, ys, 64);
}
