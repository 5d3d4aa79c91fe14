// copy_tile: each core copies its rows of x from GM into one UB tile buffer, tile after tile,
// with DataCopyPad (tileRows bursts of tileCols halves, source stride = the rest of the row).
// Copies into the same buffer are ordered by MTE2 itself, so no flags are needed until the
// last tile's first 32 B block goes back to GM as the check value.
#include "kernel_operator.h"

class KernelCopyTile {
public:
    __aicore__ inline KernelCopyTile() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR z, uint32_t cols, uint32_t rowsPerCore, uint32_t tileRows,
                                uint32_t tileCols)
    {
        this->cols = cols;
        this->rowsPerCore = rowsPerCore;
        this->tileRows = tileRows;
        this->tileCols = tileCols;
        uint64_t offset = static_cast<uint64_t>(rowsPerCore) * cols * AscendC::GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ half*)x + offset, static_cast<uint64_t>(rowsPerCore) * cols);
        zGm.SetGlobalBuffer((__gm__ half*)z + AscendC::GetBlockIdx() * 16, 16);
        uint32_t rowBytes = (tileCols * sizeof(half) + 31) / 32 * 32;
        pipe.InitBuffer(tileBuf, tileRows * rowBytes);
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<half> tile = tileBuf.Get<half>();
        AscendC::DataCopyExtParams params{static_cast<uint16_t>(tileRows), static_cast<uint32_t>(tileCols * sizeof(half)),
                                          static_cast<uint32_t>((cols - tileCols) * sizeof(half)), 0, 0};
        AscendC::DataCopyPadExtParams<half> pad{false, 0, 0, 0};
        for (uint32_t r = 0; r < rowsPerCore; r += tileRows) {
            for (uint32_t c = 0; c < cols; c += tileCols) {
                AscendC::DataCopyPad(tile, xGm[static_cast<uint64_t>(r) * cols + c], params, pad);
            }
        }
        AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(0);
        AscendC::DataCopy(zGm, tile, 16);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tileBuf;
    AscendC::GlobalTensor<half> xGm;
    AscendC::GlobalTensor<half> zGm;
    uint32_t cols = 0;
    uint32_t rowsPerCore = 0;
    uint32_t tileRows = 0;
    uint32_t tileCols = 0;
};

extern "C" __global__ __aicore__ void copy_tile(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelCopyTile op;
    op.Init(x, z, tilingData.cols, tilingData.rowsPerCore, tilingData.tileRows, tilingData.tileCols);
    op.Process();
}
