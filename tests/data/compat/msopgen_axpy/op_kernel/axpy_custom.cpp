// Kernel of the import fixture: z = alpha * x + y, computed in the input type.
#include "kernel_operator.h"

template <typename T>
class KernelAxpy {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const AxpyCustomTilingData& t)
    {
        const uint32_t start = AscendC::GetBlockIdx() * t.perCore;
        // The last core's share ends at the tensor's end rounded up to a 32 B block.
        constexpr uint32_t blockElems = 32 / sizeof(T);
        const uint32_t rest = (t.totalLength - start + blockElems - 1) / blockElems * blockElems;
        len_ = rest < t.perCore ? rest : t.perCore;
        alpha_ = t.alpha;
        negate_ = t.negate != 0;
        xGm_.SetGlobalBuffer((__gm__ T*)x + start, len_);
        yGm_.SetGlobalBuffer((__gm__ T*)y + start, len_);
        zGm_.SetGlobalBuffer((__gm__ T*)z + start, len_);
        pipe_.InitBuffer(xBuf_, len_ * sizeof(T));
        pipe_.InitBuffer(yBuf_, len_ * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<T> x = xBuf_.Get<T>();
        AscendC::LocalTensor<T> y = yBuf_.Get<T>();
        AscendC::DataCopy(x, xGm_, len_);
        AscendC::DataCopy(y, yGm_, len_);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(0);
        AscendC::Axpy(y, x, static_cast<T>(alpha_), len_);
        if (negate_) {
            AscendC::Muls(y, y, static_cast<T>(-1.0f), len_);
        }
        AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(0);
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(0);
        AscendC::DataCopy(zGm_, y, len_);
    }

private:
    AscendC::TPipe pipe_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> xBuf_, yBuf_;
    AscendC::GlobalTensor<T> xGm_, yGm_, zGm_;
    uint32_t len_ = 0;
    float alpha_ = 0;
    bool negate_ = false;
};

extern "C" __global__ __aicore__ void axpy_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelAxpy<DTYPE_X> op;
    op.Init(x, y, z, tilingData);
    op.Process();
}
