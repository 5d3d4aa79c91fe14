#include "kernel_operator.h"

// Copies a rows x len window of a rows x cols matrix into UB rows `pitch` elements apart and
// back out twice, one row per copy: the GM rows of x start at r * cols / 2 (not linear in r)
// and the second loop makes two copies per row.
template <typename T>
class KernelBandCopy {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols, uint32_t len, uint32_t pitch)
    {
        this->rows = rows;
        this->cols = cols;
        this->len = len;
        this->pitch = pitch;
        xGm.SetGlobalBuffer((__gm__ T*)x, rows * cols);
        yGm.SetGlobalBuffer((__gm__ T*)y, 2 * rows * pitch);
        pipe.InitBuffer(queue, 1, rows * pitch * sizeof(T));
    }
    __aicore__ inline void Process(uint32_t firstCol)
    {
        AscendC::LocalTensor<T> xLocal = queue.AllocTensor<T>();
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        for (uint32_t r = 0; r < rows; r++) {
            AscendC::DataCopyExtParams rowParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPad(xLocal[r * pitch], xGm[firstCol + r * cols / 2], rowParams, padParams);
        }
        queue.EnQue(xLocal);
        xLocal = queue.DeQue<T>();
        for (uint32_t r = 0; r < rows; ++r) {
            AscendC::DataCopy(yGm[static_cast<uint64_t>(r) * pitch], xLocal[r * pitch], pitch);
            AscendC::DataCopy(yGm[static_cast<uint64_t>(r) * pitch + rows * pitch], xLocal[r * pitch], pitch);
        }
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

extern "C" __global__ __aicore__ void band_copy(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelBandCopy<float> op;
    op.Init(x, y, 4, 24, 13, 16);
    op.Process(3);
}
