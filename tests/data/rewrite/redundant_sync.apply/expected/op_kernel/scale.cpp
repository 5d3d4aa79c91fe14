#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

class KernelScale {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t tileLength, uint32_t tileNum)
    {
        this->tileLength = tileLength;
        this->tileNum = tileNum;
        xGm.SetGlobalBuffer((__gm__ float*)x, tileLength * tileNum);
        yGm.SetGlobalBuffer((__gm__ float*)y, tileLength * tileNum);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLength * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < this->tileNum; i++) {
            CopyIn(i);
            Compute();
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i)
    {
        AscendC::LocalTensor<float> x = inQueue.AllocTensor<float>();
        AscendC::DataCopy(x, xGm[i * this->tileLength], this->tileLength);
        inQueue.EnQue(x);
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<float> x = inQueue.DeQue<float>();
        AscendC::LocalTensor<float> y = outQueue.AllocTensor<float>();
        AscendC::Muls(y, x, 2.0f, this->tileLength);
        outQueue.EnQue(y);
        inQueue.FreeTensor(x);
    }
    __aicore__ inline void CopyOut(uint32_t i)
    {
        AscendC::LocalTensor<float> y = outQueue.DeQue<float>();
        AscendC::DataCopy(yGm[i * this->tileLength], y, this->tileLength);
        outQueue.FreeTensor(y);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::GlobalTensor<float> xGm, yGm;
    uint32_t tileLength = 0;
    uint32_t tileNum = 0;
};

extern "C" __global__ __aicore__ void scale(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelScale op;
    op.Init(x, y, 64, 4);
    op.Process();
}
