// Kernel of ScatterAddCustom: out = self; out[index[n], :] += src[n, :] for n = 0..N-1.
// Each core owns a range of output rows, so no two cores write the same row and no
// atomics are needed; within a core the src rows are added in increasing n, which makes
// the result deterministic (the same order as a sequential loop). Rows are accumulated
// in float in UB chunks: load the chunk of self, scan every index, add the src rows that
// land in the chunk, write the chunk. Indices outside [0, M) add nothing.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// TilingT is the tiling class GET_TILING_DATA yields.
template <typename T, typename TilingT>
class KernelScatterAdd {
public:
    __aicore__ inline KernelScatterAdd() {}
    __aicore__ inline void Init(GM_ADDR self, GM_ADDR index, GM_ADDR src, GM_ADDR out,
                                const TilingT& tiling)
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
        selfGm.SetGlobalBuffer((__gm__ T*)self, static_cast<uint64_t>(tiling.rows) * tiling.cols);
        indexGm.SetGlobalBuffer((__gm__ int32_t*)index, tiling.numIndices);
        srcGm.SetGlobalBuffer((__gm__ T*)src, static_cast<uint64_t>(tiling.numIndices) * tiling.cols);
        outGm.SetGlobalBuffer((__gm__ T*)out, static_cast<uint64_t>(tiling.rows) * tiling.cols);
        uint32_t chunkElems = tiling.rowsPerChunk * tiling.colTile;
        pipe.InitBuffer(inQueueSelf, 1, chunkElems * sizeof(T));
        pipe.InitBuffer(outQueueOut, 1, chunkElems * sizeof(T));
        pipe.InitBuffer(accBuf, chunkElems * sizeof(float));
        pipe.InitBuffer(inQueueIndex, 1, tiling.indexTile * sizeof(int32_t));
        pipe.InitBuffer(inQueueSrc, BUFFER_NUM, tiling.colTile * sizeof(T));
        if constexpr (!std::is_same_v<T, float>) {
            pipe.InitBuffer(srcFloatBuf, tiling.colTile * sizeof(float));
        }
    }
    __aicore__ inline void Process()
    {
        for (uint32_t c0 = 0; c0 < t.cols; c0 += t.colTile) {
            uint32_t len = t.cols - c0 < t.colTile ? t.cols - c0 : t.colTile;
            for (uint32_t r0 = 0; r0 < this->blockRows; r0 += t.rowsPerChunk) {
                uint32_t rows = this->blockRows - r0 < t.rowsPerChunk ? this->blockRows - r0 : t.rowsPerChunk;
                LoadChunk(this->rowOffset + r0, rows, c0, len);
                AddSources(this->rowOffset + r0, rows, c0, len);
                StoreChunk(this->rowOffset + r0, rows, c0, len);
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
    // Gap between rows of `len` elements laid out at a pitch of colTile, in 32 B blocks.
    __aicore__ inline uint32_t UbGap(uint32_t len) const
    {
        return (t.colTile * sizeof(T) - (len * sizeof(T) + 31) / 32 * 32) / 32;
    }
    __aicore__ inline void LoadChunk(uint32_t firstRow, uint32_t rows, uint32_t c0, uint32_t len)
    {
        AscendC::LocalTensor<T> selfLocal = inQueueSelf.AllocTensor<T>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(len * sizeof(T)),
                                              static_cast<uint32_t>((t.cols - len) * sizeof(T)), UbGap(len), 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(selfLocal, selfGm[static_cast<uint64_t>(firstRow) * t.cols + c0], copyParams, padParams);
        inQueueSelf.EnQue(selfLocal);
        selfLocal = inQueueSelf.DeQue<T>();
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        for (uint32_t r = 0; r < rows; r++) {
            if constexpr (std::is_same_v<T, float>) {
                AscendC::Muls(acc[r * t.colTile], selfLocal[r * t.colTile], 1.0f, len);
            } else {
                AscendC::Cast(acc[r * t.colTile], selfLocal[r * t.colTile], AscendC::RoundMode::CAST_NONE, len);
            }
        }
        inQueueSelf.FreeTensor(selfLocal);
    }
    __aicore__ inline void AddSources(uint32_t firstRow, uint32_t rows, uint32_t c0, uint32_t len)
    {
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        for (uint32_t n0 = 0; n0 < t.numIndices; n0 += t.indexTile) {
            uint32_t count = t.numIndices - n0 < t.indexTile ? t.numIndices - n0 : t.indexTile;
            AscendC::LocalTensor<int32_t> indexLocal = inQueueIndex.AllocTensor<int32_t>();
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(count * sizeof(int32_t)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<int32_t> padParams{false, 0, 0, 0};
            AscendC::DataCopyPad(indexLocal, indexGm[n0], copyParams, padParams);
            inQueueIndex.EnQue(indexLocal);
            indexLocal = inQueueIndex.DeQue<int32_t>();
            // The indices are read by the scalar unit, which the queue does not order after MTE2.
            SyncPipes<AscendC::HardEvent::MTE2_S>();
            for (uint32_t k = 0; k < count; k++) {
                int64_t row = indexLocal.GetValue(k);
                if (row < firstRow || row >= static_cast<int64_t>(firstRow) + rows) {
                    continue;
                }
                AddSourceRow(acc[(row - firstRow) * t.colTile], n0 + k, c0, len);
            }
            SyncPipes<AscendC::HardEvent::S_MTE2>();  // the next index load overwrites what was read
            inQueueIndex.FreeTensor(indexLocal);
        }
    }
    __aicore__ inline void AddSourceRow(const AscendC::LocalTensor<float>& accRow, uint32_t n, uint32_t c0, uint32_t len)
    {
        AscendC::LocalTensor<T> srcLocal = inQueueSrc.AllocTensor<T>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(srcLocal, srcGm[static_cast<uint64_t>(n) * t.cols + c0], copyParams, padParams);
        inQueueSrc.EnQue(srcLocal);
        srcLocal = inQueueSrc.DeQue<T>();
        if constexpr (std::is_same_v<T, float>) {
            AscendC::Add(accRow, accRow, srcLocal, len);
        } else {
            AscendC::LocalTensor<float> srcFloat = srcFloatBuf.Get<float>();
            AscendC::Cast(srcFloat, srcLocal, AscendC::RoundMode::CAST_NONE, len);
            AscendC::Add(accRow, accRow, srcFloat, len);
        }
        inQueueSrc.FreeTensor(srcLocal);
    }
    __aicore__ inline void StoreChunk(uint32_t firstRow, uint32_t rows, uint32_t c0, uint32_t len)
    {
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        AscendC::LocalTensor<T> outLocal = outQueueOut.AllocTensor<T>();
        for (uint32_t r = 0; r < rows; r++) {
            if constexpr (std::is_same_v<T, float>) {
                AscendC::Muls(outLocal[r * t.colTile], acc[r * t.colTile], 1.0f, len);
            } else {
                AscendC::Cast(outLocal[r * t.colTile], acc[r * t.colTile], AscendC::RoundMode::CAST_RINT, len);
            }
        }
        outQueueOut.EnQue<T>(outLocal);
        outLocal = outQueueOut.DeQue<T>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(len * sizeof(T)),
                                              UbGap(len), static_cast<uint32_t>((t.cols - len) * sizeof(T)), 0};
        AscendC::DataCopyPad(outGm[static_cast<uint64_t>(firstRow) * t.cols + c0], outLocal, copyParams);
        outQueueOut.FreeTensor(outLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueSelf, inQueueIndex;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueSrc;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueueOut;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> accBuf, srcFloatBuf;
    AscendC::GlobalTensor<T> selfGm, srcGm, outGm;
    AscendC::GlobalTensor<int32_t> indexGm;
    TilingT t;
    uint32_t blockRows = 0;
    uint32_t rowOffset = 0;
};

extern "C" __global__ __aicore__ void scatter_add_custom(GM_ADDR self, GM_ADDR index, GM_ADDR src, GM_ADDR out,
                                                         GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelScatterAdd<DTYPE_SELF, decltype(tilingData)> op;
    op.Init(self, index, src, out, tilingData);
    op.Process();
}
