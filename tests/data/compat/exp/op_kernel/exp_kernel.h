// Kernel class of the fixture. It names the tiling struct unqualified, as kernels do.
#pragma once
#include "kernel_operator.h"

template <typename T>
class ExpKernel {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ExpTilingData& tiling)
    {
        const uint32_t start = AscendC::GetBlockIdx() * tiling.perCore;
        // Every core moves its whole share, rounded to 32 B blocks; the last one runs past the
        // tensor's end into the allocation's padding, as public kernels do.
        length_ = tiling.perCore;
        xGm_.SetGlobalBuffer((__gm__ T*)x + start, length_);
        yGm_.SetGlobalBuffer((__gm__ T*)y + start, length_);
        pipe_.InitBuffer(inQueue_, 1, length_ * sizeof(T));
        pipe_.InitBuffer(outQueue_, 1, length_ * sizeof(T));
        // Sized for a path this kernel never takes: far more than UB holds, never touched.
        pipe_.InitBuffer(unused_, 1024 * 1024);
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<T> in = inQueue_.AllocTensor<T>();
        AscendC::DataCopy(in, xGm_, length_);
        inQueue_.EnQue(in);
        in = inQueue_.DeQue<T>();
        AscendC::LocalTensor<T> out = outQueue_.AllocTensor<T>();
        if (likely(length_ > 0)) {
            AscendC::Exp(out, in, length_);
        }
        outQueue_.EnQue(out);
        inQueue_.FreeTensor(in);
        out = outQueue_.DeQue<T>();
        AscendC::DataCopy(yGm_, out, length_);
        outQueue_.FreeTensor(out);
    }

private:
    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue_;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQueue_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> unused_;
    AscendC::GlobalTensor<T> xGm_, yGm_;
    uint32_t length_ = 0;
};
