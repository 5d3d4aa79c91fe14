// z = x + y for the AddCustom tiling, one small tile at a time through TBuf buffers with
// explicit SetFlag/WaitFlag ordering (no TQue, so nothing is synchronised implicitly).
// With no RACE_* macro defined the kernel is correctly ordered. Each macro removes one
// ordering step, the way real kernels go wrong; the results stay right on the CPU (it
// runs the pipes one after another), only the hazard checker can tell:
//   RACE_NO_SYNC_IN     Add reads x/y right after DataCopy, with no MTE2->V event at all
//   RACE_LATE_WAIT      the MTE2->V event is waited for only after Add has read x/y
//   RACE_REUSE          the next tile's DataCopy overwrites x/y while Add may still read them
//   RACE_SCALAR_READ    a GetValue of z is added with no V->S event before it
//   RACE_ODD_SHARE      the MTE2->V event is skipped on a core whose share is odd
// and two macros plant a wrong result instead:
//   TAIL_OFF_BY_ONE     a partial last tile of two or more elements stores one element too few
//   NEGATIVE_CLAMP      negative sums come out as 0 (a wrong branch for negative inputs)
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t TILE = 128;  // elements per tile: several tiles per core on the public cases

class SyncAdd {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t formerNum,
                                uint32_t formerLength, uint32_t tailLength)
    {
        const uint32_t blockIdx = GetBlockIdx();
        uint64_t offset = 0;
        if (blockIdx < formerNum) {
            length = formerLength;
            offset = static_cast<uint64_t>(formerLength) * blockIdx;
        } else {
            length = tailLength;
            offset = static_cast<uint64_t>(formerLength) * formerNum +
                     static_cast<uint64_t>(tailLength) * (blockIdx - formerNum);
        }
        if (offset >= totalLength) length = 0;
        else if (offset + length > totalLength) length = totalLength - offset;
        xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x + offset, length);
        yGm.SetGlobalBuffer((__gm__ DTYPE_Y*)y + offset, length);
        zGm.SetGlobalBuffer((__gm__ DTYPE_Z*)z + offset, length);
        pipe.InitBuffer(xBuf, TILE * sizeof(DTYPE_X));
        pipe.InitBuffer(yBuf, TILE * sizeof(DTYPE_Y));
        pipe.InitBuffer(zBuf, TILE * sizeof(DTYPE_Z));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<DTYPE_X> xLocal = xBuf.Get<DTYPE_X>();
        LocalTensor<DTYPE_Y> yLocal = yBuf.Get<DTYPE_Y>();
        LocalTensor<DTYPE_Z> zLocal = zBuf.Get<DTYPE_Z>();
        const uint32_t tiles = (length + TILE - 1) / TILE;
        for (uint32_t i = 0; i < tiles; ++i) {
            const uint32_t len = i + 1 == tiles ? length - i * TILE : TILE;
            DataCopyExtParams in{1, static_cast<uint32_t>(len * sizeof(DTYPE_X)), 0, 0, 0};
            DataCopyPadExtParams<DTYPE_X> pad{false, 0, 0, 0};
#ifndef RACE_REUSE
            if (i > 0) WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);  // Add of the previous tile is done with x/y
#endif
            DataCopyPad(xLocal, xGm[i * TILE], in, pad);
            DataCopyPad(yLocal, yGm[i * TILE], in, pad);
#ifndef RACE_NO_SYNC_IN
#ifdef RACE_ODD_SHARE
            if (length % 2 == 0)
#endif
            {
            SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
#ifndef RACE_LATE_WAIT
            WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
#endif
            }
#endif
            if (i > 0) WaitFlag<HardEvent::MTE3_V>(EVENT_ID0);  // z of the previous tile is in GM
            Add(zLocal, xLocal, yLocal, len);
#ifdef NEGATIVE_CLAMP
            Maxs(zLocal, zLocal, static_cast<DTYPE_Z>(0), len);
#endif
#if defined(RACE_LATE_WAIT) && !defined(RACE_NO_SYNC_IN)
            WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
#endif
#ifndef RACE_REUSE
            if (i + 1 < tiles) SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
#endif
#ifdef RACE_SCALAR_READ
            checksum += static_cast<float>(zLocal.GetValue(0));
#endif
            SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
            WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
#ifdef TAIL_OFF_BY_ONE
            const uint32_t stored = len < TILE && len > 1 ? len - 1 : len;
#else
            const uint32_t stored = len;
#endif
            DataCopyPad(zGm[i * TILE], zLocal, DataCopyExtParams{1, static_cast<uint32_t>(stored * sizeof(DTYPE_Z)), 0, 0, 0});
            if (i + 1 < tiles) SetFlag<HardEvent::MTE3_V>(EVENT_ID0);
        }
    }

private:
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf, yBuf, zBuf;
    GlobalTensor<DTYPE_X> xGm;
    GlobalTensor<DTYPE_Y> yGm;
    GlobalTensor<DTYPE_Z> zGm;
    uint32_t length = 0;
    float checksum = 0;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    SyncAdd op;
    op.Init(x, y, z, tilingData.totalLength, tilingData.formerNum, tilingData.formerLength, tilingData.tailLength);
    op.Process();
}
