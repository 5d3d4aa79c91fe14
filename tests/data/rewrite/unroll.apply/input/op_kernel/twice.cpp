#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelTwice {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t tileLength, uint32_t tileNum)
    {
        xGm.SetGlobalBuffer((__gm__ T*)x, tileLength * tileNum);
        yGm.SetGlobalBuffer((__gm__ T*)y, tileLength * tileNum);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileLength * sizeof(T));
        this->tileLength = tileLength;
        this->tileNum = tileNum;
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < this->tileNum; i++) {
            CopyIn(i);
            Compute();
            CopyOut(i * this->tileLength);  // an offset, not the index
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t progress)
    {
        AscendC::LocalTensor<T> x = inQueue.AllocTensor<T>();
        AscendC::DataCopy(x, xGm[progress * tileLength], tileLength);
        inQueue.EnQue(x);
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<T> x = inQueue.DeQue<T>();
        AscendC::LocalTensor<T> y = outQueue.AllocTensor<T>();
        AscendC::Muls(y, x, static_cast<T>(2), tileLength);
        outQueue.EnQue(y);
        inQueue.FreeTensor(x);
    }
    __aicore__ inline void CopyOut(uint32_t offset)
    {
        AscendC::LocalTensor<T> y = outQueue.DeQue<T>();
        AscendC::DataCopy(yGm[offset], y, tileLength);
        outQueue.FreeTensor(y);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::GlobalTensor<T> xGm, yGm;
    uint32_t tileLength = 0;
    uint32_t tileNum = 0;
};

extern "C" __global__ __aicore__ void twice(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelTwice<float> op;
    op.Init(x, y, 1024, 5);
    op.Process();
}
