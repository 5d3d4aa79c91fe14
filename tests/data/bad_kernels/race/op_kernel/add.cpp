// Add kernel that stages x, y and z in one TBuf and never synchronises the pipes: the
// MTE2 copy-in, the vector Add and the MTE3 copy-out touch the same UB bytes unordered.
// It computes the right numbers on the CPU; only the race checker can tell.
// For cases whose per-core shares are whole 32 B blocks.
// Expected verdict: runtime_error (race).
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    const uint32_t blockIdx = AscendC::GetBlockIdx();
    uint32_t length = blockIdx < tilingData.formerNum ? tilingData.formerLength : tilingData.tailLength;
    const uint64_t offset = blockIdx < tilingData.formerNum
                                ? static_cast<uint64_t>(tilingData.formerLength) * blockIdx
                                : static_cast<uint64_t>(tilingData.formerLength) * tilingData.formerNum +
                                      static_cast<uint64_t>(tilingData.tailLength) * (blockIdx - tilingData.formerNum);
    if (offset >= tilingData.totalLength) {
        return;
    }
    if (offset + length > tilingData.totalLength) {
        length = tilingData.totalLength - offset;
    }
    AscendC::GlobalTensor<DTYPE_X> xGm;
    AscendC::GlobalTensor<DTYPE_Y> yGm;
    AscendC::GlobalTensor<DTYPE_Z> zGm;
    xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x + offset, length);
    yGm.SetGlobalBuffer((__gm__ DTYPE_Y*)y + offset, length);
    zGm.SetGlobalBuffer((__gm__ DTYPE_Z*)z + offset, length);
    const uint32_t tile = tilingData.tileLength;
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 3 * tile * sizeof(DTYPE_X));
    AscendC::LocalTensor<DTYPE_X> all = buf.Get<DTYPE_X>();
    AscendC::LocalTensor<DTYPE_X> xLocal = all[0];
    AscendC::LocalTensor<DTYPE_X> yLocal = all[tile];
    AscendC::LocalTensor<DTYPE_X> zLocal = all[2 * tile];
    for (uint32_t done = 0; done < length; done += tile) {
        const uint32_t len = length - done < tile ? length - done : tile;
        AscendC::DataCopy(xLocal, xGm[done], len);
        AscendC::DataCopy(yLocal, yGm[done], len);
        AscendC::Add(zLocal, xLocal, yLocal, len);
        AscendC::DataCopy(zGm[done], zLocal, len);
    }
}
