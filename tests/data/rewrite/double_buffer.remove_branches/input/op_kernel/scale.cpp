#include "scale_common.h"

template <typename T>
class KernelScale {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t tile)
    {
        xGm.SetGlobalBuffer((__gm__ T*)x, tile);
        yGm.SetGlobalBuffer((__gm__ T*)y, tile);
        pipe.InitBuffer(inQueue, BUFFER_NUM, TILE_BYTES(tile, T));
        pipe.InitBuffer(outQueue, BUFFER_NUM, TILE_BYTES(tile, T));
        this->tile = tile;
    }
    __aicore__ inline void Process(uint32_t tiles, uint32_t mode)
    {
        // One tile per iteration, copied in on one of several exclusive paths.
        for (uint32_t i = 0; i < tiles; i++) {
            if (mode == 0) {
                CopyIn(i);
                Compute();
                CopyOut(i);
                continue;
            }
            if (mode == 1) {
                CopyIn(i);
            } else if (mode == 2) {
                CopyIn(i + 0);
            } else {
                CopyIn(i);
            }
            Compute();
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i)
    {
        AscendC::LocalTensor<T> x = inQueue.AllocTensor<T>();
        AscendC::DataCopy(x, xGm[i * tile], tile);
        inQueue.EnQue(x);
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<T> xi = inQueue.DeQue<T>();
        AscendC::LocalTensor<T> y = outQueue.AllocTensor<T>();
        AscendC::Muls(y, xi, static_cast<T>(2), tile);
        outQueue.EnQue(y);
        inQueue.FreeTensor(xi);
    }
    __aicore__ inline void CopyOut(uint32_t i)
    {
        AscendC::LocalTensor<T> yo = outQueue.DeQue<T>();
        AscendC::DataCopy(yGm[i * tile], yo, tile);
        outQueue.FreeTensor(yo);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::GlobalTensor<T> xGm, yGm;
    uint32_t tile = 0;
};

extern "C" __global__ __aicore__ void scale(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelScale<float> op;
    op.Init(x, y, 1024);
    op.Process(4, 1);
}
