#include "kernel_operator.h"
#include "copy_tiling.h"

template <typename T>
class KernelCopy {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t n)
    {
        xGm.SetGlobalBuffer((__gm__ T*)x, n);
        yGm.SetGlobalBuffer((__gm__ T*)y, n);
        pipe.InitBuffer(queue, 1, n * sizeof(T));
        this->n = n;
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<T> xLocal = queue.AllocTensor<T>();
        AscendC::DataCopyPad(xLocal, xGm[0], AscendC::DataCopyExtParams{1, static_cast<uint32_t>((n) * sizeof(T)), 0, 0, 0}, AscendC::DataCopyPadExtParams<T>{false, 0, 0, 0});
        queue.EnQue(xLocal);
        AscendC::LocalTensor<T> yLocal = queue.DeQue<T>();
        AscendC::DataCopyPad(yGm, yLocal, AscendC::DataCopyExtParams{1, static_cast<uint32_t>((n) * sizeof(T)), 0, 0, 0});
        queue.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> queue;
    AscendC::GlobalTensor<T> xGm, yGm;
    uint32_t n = 0;
};

// The tiling struct is named without optiling::, as the kernel build allows.
extern "C" __global__ __aicore__ void copy(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(CopyTilingData, tilingData, tiling);
    KernelCopy<float> op;
    op.Init(x, y, tilingData.n);
    op.Process();
}
