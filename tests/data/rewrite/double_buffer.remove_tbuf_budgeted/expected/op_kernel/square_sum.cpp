#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 1;

// x*x + x with a float scratch buffer the size of a tile.
template <typename T>
class KernelSquareSum {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t tileLength)
    {
        xGm.SetGlobalBuffer((__gm__ T*)x, tileLength);
        yGm.SetGlobalBuffer((__gm__ T*)y, tileLength);
        this->tileLength = tileLength;
        pipe.InitBuffer(inQueue, BUFFER_NUM, this->tileLength * sizeof(T));
        pipe.InitBuffer(outQueue, BUFFER_NUM, this->tileLength * sizeof(T));
        pipe.InitBuffer(scratch, this->tileLength * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<T> x = inQueue.AllocTensor<T>();
        AscendC::DataCopy(x, xGm, tileLength);
        inQueue.EnQue(x);
        AscendC::LocalTensor<T> xi = inQueue.DeQue<T>();
        AscendC::LocalTensor<T> y = outQueue.AllocTensor<T>();
        AscendC::LocalTensor<float> sq = scratch.Get<float>();
        AscendC::Mul(sq, xi, xi, tileLength);
        AscendC::Add(y, sq, xi, tileLength);
        outQueue.EnQue(y);
        inQueue.FreeTensor(xi);
        AscendC::LocalTensor<T> yo = outQueue.DeQue<T>();
        AscendC::DataCopy(yGm, yo, tileLength);
        outQueue.FreeTensor(yo);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> scratch;
    AscendC::GlobalTensor<T> xGm, yGm;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void square_sum(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelSquareSum<float> op;
    op.Init(x, y, 1024);
    op.Process();
}
