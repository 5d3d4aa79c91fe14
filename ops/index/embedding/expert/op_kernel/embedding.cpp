// Kernel of EmbeddingCustom (expert): y[..., :] = weight[ids[...], :], ids flattened to N lookups.
// Each core owns a contiguous range of output rows. Per tile, the tile's ids are read, every
// row slice is fetched from the table into UB at a 32 B pitch, and the whole tile goes
// out with one strided copy (the output rows are contiguous). The data never passes
// through the vector unit, so a bound VECIN->VECOUT queue holds it. An id outside
// [0, V) yields a zero row rather than a read outside the table.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// TilingT is the tiling class GET_TILING_DATA yields.
template <typename T, typename TilingT>
class KernelEmbedding {
public:
    __aicore__ inline KernelEmbedding() {}
    __aicore__ inline void Init(GM_ADDR weight, GM_ADDR ids, GM_ADDR y, const TilingT& tiling)
    {
        this->t = tiling;
        uint32_t blockIdx = AscendC::GetBlockIdx();
        if (blockIdx < tiling.formerNum) {
            this->blockRows = tiling.formerRows;
            this->rowOffset = tiling.formerRows * blockIdx;
        } else {
            this->blockRows = tiling.tailRows;
            this->rowOffset = tiling.formerRows * tiling.formerNum + tiling.tailRows * (blockIdx - tiling.formerNum);
        }
        weightGm.SetGlobalBuffer((__gm__ T*)weight, static_cast<uint64_t>(tiling.tableRows) * tiling.cols);
        indeweightGm.SetGlobalBuffer((__gm__ int32_t*)ids + this->rowOffset, this->blockRows);
        yGm.SetGlobalBuffer((__gm__ T*)y + static_cast<uint64_t>(this->rowOffset) * tiling.cols,
                            static_cast<uint64_t>(this->blockRows) * tiling.cols);
        pipe.InitBuffer(rowQueue, BUFFER_NUM, tiling.rowsPerTile * tiling.colTile * sizeof(T));
        pipe.InitBuffer(indexBuf, (tiling.idsPerLoad * sizeof(int32_t) + 31) / 32 * 32);
    }
    __aicore__ inline void Process()
    {
        // expert: the core's ids are loaded a large chunk at a time (all of them, usually), so
        // the scalar unit reads indices and issues row fetches without waiting for the row
        // copies in flight: one MTE2->S handoff per chunk instead of one per tile.
        AscendC::LocalTensor<int32_t> indexLocal = indexBuf.Get<int32_t>();
        for (uint32_t i0 = 0; i0 < this->blockRows; i0 += t.idsPerLoad) {
            uint32_t n = this->blockRows - i0 < t.idsPerLoad ? this->blockRows - i0 : t.idsPerLoad;
            if (i0 != 0) {
                SyncPipes<AscendC::HardEvent::S_MTE2>();  // the next index load overwrites what was read
            }
            AscendC::DataCopyExtParams idsParams{1, static_cast<uint32_t>(n * sizeof(int32_t)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<int32_t> idsPad{false, 0, 0, 0};
            AscendC::DataCopyPad(indexLocal, indeweightGm[i0], idsParams, idsPad);
            // The indices are read by the scalar unit, which nothing else orders after MTE2.
            SyncPipes<AscendC::HardEvent::MTE2_S>();
            for (uint32_t r0 = 0; r0 < n; r0 += t.rowsPerTile) {
                uint32_t rows = n - r0 < t.rowsPerTile ? n - r0 : t.rowsPerTile;
                for (uint32_t c0 = 0; c0 < t.cols; c0 += t.colTile) {
                    uint32_t len = t.cols - c0 < t.colTile ? t.cols - c0 : t.colTile;
                    CopyIn(indexLocal, r0, rows, c0, len);
                    CopyOut(i0 + r0, rows, c0, len);
                }
            }
        }
    }

private:
    // Makes the second pipe of `event` wait for everything the first pipe issued so far.
    template <AscendC::HardEvent event>
    __aicore__ inline void SyncPipes()
    {
        AscendC::TEventID eventId = pipe.FetchEventID<event>();
        AscendC::SetFlag<event>(eventId);
        AscendC::WaitFlag<event>(eventId);
    }
    __aicore__ inline void CopyIn(const AscendC::LocalTensor<int32_t>& indexLocal, uint32_t first, uint32_t rows,
                                  uint32_t c0, uint32_t len)
    {
        AscendC::LocalTensor<T> rowLocal = rowQueue.AllocTensor<T>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        bool zeroed = false;
        for (uint32_t r = 0; r < rows; r++) {
            int32_t row = indexLocal.GetValue(first + r);
            if (row < 0 || static_cast<uint32_t>(row) >= t.tableRows) {
                if (!zeroed) {
                    // This buffer was last read by a copy out two tiles ago, which the
                    // queue orders only against copies in, not against vector writes.
                    SyncPipes<AscendC::HardEvent::MTE3_V>();
                    zeroed = true;
                }
                AscendC::Duplicate(rowLocal[r * t.colTile], static_cast<T>(0), len);
                continue;
            }
            AscendC::DataCopyPad(rowLocal[r * t.colTile], weightGm[static_cast<uint64_t>(row) * t.cols + c0], copyParams,
                                 padParams);
        }
        if (zeroed) {
            // The bound queue orders the copies in against the copy out, not vector writes.
            SyncPipes<AscendC::HardEvent::V_MTE3>();
        }
        rowQueue.EnQue(rowLocal);
    }
    __aicore__ inline void CopyOut(uint32_t r0, uint32_t rows, uint32_t c0, uint32_t len)
    {
        AscendC::LocalTensor<T> rowLocal = rowQueue.DeQue<T>();
        uint32_t ubGap = (t.colTile * sizeof(T) - (len * sizeof(T) + 31) / 32 * 32) / 32;
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(len * sizeof(T)),
                                              ubGap, static_cast<uint32_t>((t.cols - len) * sizeof(T)), 0};
        AscendC::DataCopyPad(yGm[static_cast<uint64_t>(r0) * t.cols + c0], rowLocal, copyParams);
        rowQueue.FreeTensor(rowLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQueBind<AscendC::QuePosition::VECIN, AscendC::QuePosition::VECOUT, BUFFER_NUM> rowQueue;
    AscendC::TBuf<AscendC::QuePosition::VECIN> indexBuf;
    AscendC::GlobalTensor<T> weightGm, yGm;
    AscendC::GlobalTensor<int32_t> indeweightGm;
    TilingT t;
    uint32_t blockRows = 0;
    uint32_t rowOffset = 0;
};

extern "C" __global__ __aicore__ void embedding_custom(GM_ADDR weight, GM_ADDR ids, GM_ADDR y, GM_ADDR workspace,
                                                    GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelEmbedding<DTYPE_WEIGHT, decltype(tilingData)> op;
    op.Init(weight, ids, y, tilingData);
    op.Process();
}
