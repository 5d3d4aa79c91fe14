#include "kernel_operator.h"

// Rows of cols elements in, through UB rows padded to 32 B, and out, by two helpers that both
// name their tensors dst and src: in one dst is in UB, in the other in GM.
template <typename T>
class KernelRows {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols)
    {
        this->rows = rows;
        this->cols = cols;
        xGm.SetGlobalBuffer((__gm__ T*)x, rows * cols);
        yGm.SetGlobalBuffer((__gm__ T*)y, rows * cols);
        pipe.InitBuffer(queue, 1, rows * 64 * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<T> local = queue.AllocTensor<T>();
        LoadRows(local, xGm);
        queue.EnQue(local);
        local = queue.DeQue<T>();
        StoreRows(yGm, local);
        queue.FreeTensor(local);
    }

private:
    __aicore__ inline void LoadRows(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src)
    {
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        for (uint32_t aocRow = 0; aocRow < copyParams.blockCount; ++aocRow) {
            AscendC::DataCopyExtParams aocRowParams{1, copyParams.blockLen, 0, 0, 0};
            AscendC::DataCopyPad(dst[aocRow * ((copyParams.blockLen + 31) / 32 * 32 + copyParams.dstStride * 32) / sizeof(T)], src[static_cast<uint64_t>(aocRow) * (copyParams.blockLen + copyParams.srcStride) / sizeof(T)], aocRowParams, padParams);
        }
    }
    __aicore__ inline void StoreRows(const AscendC::GlobalTensor<T>& dst, const AscendC::LocalTensor<T>& src)
    {
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0};
        for (uint32_t aocRow = 0; aocRow < copyParams.blockCount; ++aocRow) {
            AscendC::DataCopyExtParams aocRowParams{1, copyParams.blockLen, 0, 0, 0};
            AscendC::DataCopyPad(dst[static_cast<uint64_t>(aocRow) * (copyParams.blockLen + copyParams.dstStride) / sizeof(T)], src[aocRow * ((copyParams.blockLen + 31) / 32 * 32 + copyParams.srcStride * 32) / sizeof(T)], aocRowParams);
        }
    }

    AscendC::TPipe pipe;
    AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, 1> queue;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> yGm;
    uint32_t rows = 0;
    uint32_t cols = 0;
};

extern "C" __global__ __aicore__ void rows_copy(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelRows<float> op;
    op.Init(x, y, 4, 60);
    op.Process();
}
