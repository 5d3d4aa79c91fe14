#include "kernel_operator.h"

class KernelLookup {
public:
    __aicore__ inline void Init(GM_ADDR idx, GM_ADDR y)
    {
        idxGm.SetGlobalBuffer((__gm__ int32_t*)idx, 8);
        yGm.SetGlobalBuffer((__gm__ int32_t*)y, 8);
        pipe.InitBuffer(idxBuf, 32);
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<int32_t> idx = idxBuf.Get<int32_t>();
        AscendC::DataCopy(idx, idxGm, 8);
        AscendC::TEventID eventId = pipe.FetchEventID<AscendC::HardEvent::MTE2_S>();
        AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(eventId);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(eventId);  // the scalar unit reads the copy
        int32_t first = idx.GetValue(0);
        yGm.SetValue(0, first);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> idxBuf;
    AscendC::GlobalTensor<int32_t> idxGm, yGm;
};

extern "C" __global__ __aicore__ void lookup(GM_ADDR idx, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelLookup op;
    op.Init(idx, y);
    op.Process();
}
