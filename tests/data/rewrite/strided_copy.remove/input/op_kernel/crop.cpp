#include "kernel_operator.h"

// Copies a rows x len window of a rows x cols matrix through UB rows pitch elements apart.
template <typename T>
class KernelCrop {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols, uint32_t len, uint32_t pitch)
    {
        this->rows = rows;
        this->cols = cols;
        this->len = len;
        this->pitch = pitch;
        xGm.SetGlobalBuffer((__gm__ T*)x, rows * cols);
        yGm.SetGlobalBuffer((__gm__ T*)y, rows * len);
        pipe.InitBuffer(queue, 1, rows * pitch * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<T> xLocal = queue.AllocTensor<T>();
        AscendC::DataCopyExtParams inParams{static_cast<uint16_t>(this->rows), static_cast<uint32_t>(this->len * sizeof(T)),
                                            static_cast<uint32_t>((this->cols - this->len) * sizeof(T)),
                                            static_cast<uint32_t>((this->pitch - this->len) * sizeof(T) / 32), 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(xLocal, xGm[this->cols], inParams, padParams);
        queue.EnQue(xLocal);
        xLocal = queue.DeQue<T>();
        AscendC::DataCopyParams outParams{static_cast<uint16_t>(this->rows), this->len * sizeof(T) / 32,
                                          (this->pitch - this->len) * sizeof(T) / 32, 0};
        AscendC::DataCopy(yGm, xLocal, outParams);
        queue.FreeTensor(xLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, 1> queue;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> yGm;
    uint32_t rows = 0;
    uint32_t cols = 0;
    uint32_t len = 0;
    uint32_t pitch = 0;
};

extern "C" __global__ __aicore__ void crop(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelCrop<float> op;
    op.Init(x, y, 4, 24, 16, 16);
    op.Process();
}
