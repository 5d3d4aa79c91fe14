// Kernel of BroadcastMulCustom: y[..., c, l] = x[..., c, l] * scale[c, 0] for x of shape
// [..., C, L] and scale of shape [C, 1] (a per-channel scale, as in [N, C, L] * [C, 1]).
// A row is one (leading index, c) pair of L values; each core owns a range of rows. The
// scale vector is loaded into UB once (with more than 8192 channels, each tile loads the
// scales of its own rows instead); rows are walked in column chunks that fit UB and
// tiles of rows stream through UB with double buffering, each row padded to a 32 B pitch
// (DataCopyPad), so any L works. bfloat16 is multiplied in float.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelBroadcastMul {
    static constexpr bool COMPUTE_IN_FLOAT = std::is_same_v<T, bfloat16_t>;
    static constexpr uint32_t ALIGN_NUM = 32 / sizeof(T);

public:
    __aicore__ inline KernelBroadcastMul() {}
    template <typename Tiling>
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR scale, GM_ADDR y, const Tiling& tiling)
    {
        uint32_t blockIdx = AscendC::GetBlockIdx();
        if (blockIdx < tiling.formerNum) {
            blockRows = tiling.formerRows;
            rowStart = static_cast<uint64_t>(tiling.formerRows) * blockIdx;
        } else {
            blockRows = tiling.tailRows;
            rowStart = static_cast<uint64_t>(tiling.formerRows) * tiling.formerNum +
                       static_cast<uint64_t>(tiling.tailRows) * (blockIdx - tiling.formerNum);
        }
        channels = tiling.channels;
        cols = tiling.cols;
        chunkCols = tiling.chunkCols;
        chunkAligned = AlignUp(chunkCols);
        rowsPerTile = tiling.rowsPerTile;
        scalePerTile = tiling.scalePerTile != 0;

        xGm.SetGlobalBuffer((__gm__ T*)x + rowStart * cols, static_cast<uint64_t>(blockRows) * cols);
        yGm.SetGlobalBuffer((__gm__ T*)y + rowStart * cols, static_cast<uint64_t>(blockRows) * cols);
        scaleGm.SetGlobalBuffer((__gm__ T*)scale, channels);
        // Per tile: two runs of scales, the second at a block boundary.
        uint32_t scaleElems = scalePerTile ? AlignUp(rowsPerTile) + ALIGN_NUM : AlignUp(channels);
        pipe.InitBuffer(inQueueScale, 1, scaleElems * sizeof(T));
        pipe.InitBuffer(inQueueX, BUFFER_NUM, rowsPerTile * chunkAligned * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, rowsPerTile * chunkAligned * sizeof(T));
        if constexpr (COMPUTE_IN_FLOAT) {
            pipe.InitBuffer(rowFloatBuf, chunkAligned * sizeof(float));
        }
    }
    __aicore__ inline void Process()
    {
        if (blockRows == 0) {
            return;
        }
        AscendC::LocalTensor<T> scaleLocal;
        if (!scalePerTile) {
            scaleLocal = LoadScale();
        }
        uint32_t tileNum = (blockRows + rowsPerTile - 1) / rowsPerTile;
        for (uint32_t col = 0; col < cols; col += chunkCols) {
            uint32_t len = cols - col < chunkCols ? cols - col : chunkCols;
            for (uint32_t t = 0; t < tileNum; t++) {
                uint32_t rows = t == tileNum - 1 ? blockRows - t * rowsPerTile : rowsPerTile;
                uint64_t firstRow = static_cast<uint64_t>(t) * rowsPerTile;
                if (scalePerTile) {
                    scaleLocal = LoadTileScale(firstRow, rows);
                }
                CopyIn(firstRow * cols + col, rows, len);
                Compute(scaleLocal, firstRow, rows, len);
                CopyOut(firstRow * cols + col, rows, len);
                if (scalePerTile) {
                    inQueueScale.FreeTensor(scaleLocal);
                }
            }
        }
        if (!scalePerTile) {
            inQueueScale.FreeTensor(scaleLocal);
        }
    }

private:
    __aicore__ inline static uint32_t AlignUp(uint32_t n) { return (n + ALIGN_NUM - 1) / ALIGN_NUM * ALIGN_NUM; }
    // A narrower last chunk still uses the full chunk pitch in UB: the gap in 32 B blocks.
    __aicore__ inline uint32_t PitchGapBlocks(uint32_t len) const
    {
        return (chunkAligned - AlignUp(len)) / ALIGN_NUM;
    }
    __aicore__ inline AscendC::LocalTensor<T> LoadScale()
    {
        AscendC::LocalTensor<T> scaleLocal = inQueueScale.AllocTensor<T>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(channels * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(scaleLocal, scaleGm, copyParams, padParams);
        inQueueScale.EnQue(scaleLocal);
        scaleLocal = inQueueScale.DeQue<T>();
        // The queue orders MTE2 before the vector pipe only; Compute reads the scales with
        // the scalar unit (GetValue), which must wait for the copy itself.
        event_t eventId = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE2_S));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(eventId);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(eventId);
        return scaleLocal;
    }
    // The scales of rows [firstRow, firstRow + rows) of this core: channels c0 .. C - 1 and,
    // when the tile wraps, 0 .. from slot AlignUp(C - c0) on (rows <= rowsPerTile < C).
    __aicore__ inline AscendC::LocalTensor<T> LoadTileScale(uint64_t firstRow, uint32_t rows)
    {
        AscendC::LocalTensor<T> scaleLocal = inQueueScale.AllocTensor<T>();
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        uint32_t c0 = static_cast<uint32_t>((rowStart + firstRow) % channels);
        uint32_t run = channels - c0 < rows ? channels - c0 : rows;
        tileWrap = run;
        AscendC::DataCopyExtParams head{1, static_cast<uint32_t>(run * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPad(scaleLocal, scaleGm[c0], head, padParams);
        if (run < rows) {
            AscendC::DataCopyExtParams wrap{1, static_cast<uint32_t>((rows - run) * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPad(scaleLocal[AlignUp(run)], scaleGm, wrap, padParams);
        }
        inQueueScale.EnQue(scaleLocal);
        scaleLocal = inQueueScale.DeQue<T>();
        // Read by the scalar unit (GetValue): wait for the copies themselves.
        event_t eventId = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE2_S));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(eventId);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(eventId);
        return scaleLocal;
    }
    // UB slot of the scale of row r of the tile starting at firstRow.
    __aicore__ inline uint32_t ScaleSlot(uint64_t firstRow, uint32_t r) const
    {
        if (!scalePerTile) {
            return static_cast<uint32_t>((rowStart + firstRow + r) % channels);
        }
        return r < tileWrap ? r : AlignUp(tileWrap) + (r - tileWrap);
    }
    __aicore__ inline void CopyIn(uint64_t offset, uint32_t rows, uint32_t len)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(len * sizeof(T)),
                                              static_cast<uint32_t>((cols - len) * sizeof(T)), PitchGapBlocks(len), 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
        inQueueX.EnQue(xLocal);
    }
    // Each row is scaled by its channel's value, read from UB by the scalar unit.
    __aicore__ inline void Compute(const AscendC::LocalTensor<T>& scaleLocal, uint64_t firstRow, uint32_t rows,
                                   uint32_t len)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        for (uint32_t r = 0; r < rows; r++) {
            uint32_t channel = ScaleSlot(firstRow, r);
            uint32_t pitch = r * chunkAligned;
            if constexpr (COMPUTE_IN_FLOAT) {
                AscendC::LocalTensor<float> rowFloat = rowFloatBuf.Get<float>();
                float s = static_cast<float>(scaleLocal.GetValue(channel));
                AscendC::Cast(rowFloat, xLocal[pitch], AscendC::RoundMode::CAST_NONE, len);
                AscendC::Muls(rowFloat, rowFloat, s, len);
                AscendC::Cast(yLocal[pitch], rowFloat, AscendC::RoundMode::CAST_RINT, len);
            } else {
                AscendC::Muls(yLocal[pitch], xLocal[pitch], scaleLocal.GetValue(channel), len);
            }
        }
        outQueueY.EnQue<T>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint64_t offset, uint32_t rows, uint32_t len)
    {
        AscendC::LocalTensor<T> yLocal = outQueueY.DeQue<T>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(len * sizeof(T)),
                                              PitchGapBlocks(len), static_cast<uint32_t>((cols - len) * sizeof(T)), 0};
        AscendC::DataCopyPad(yGm[offset], yLocal, copyParams);
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueScale;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> rowFloatBuf;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> scaleGm;
    AscendC::GlobalTensor<T> yGm;
    uint64_t rowStart = 0;
    uint32_t blockRows = 0;
    uint32_t channels = 0;
    uint32_t cols = 0;
    uint32_t chunkCols = 0;
    uint32_t chunkAligned = 0;
    uint32_t rowsPerTile = 0;
    bool scalePerTile = false;
    uint32_t tileWrap = 0;  // per-tile scales: rows of the current tile before channel C wraps to 0
};

extern "C" __global__ __aicore__ void broadcast_mul_custom(GM_ADDR x, GM_ADDR scale, GM_ADDR y, GM_ADDR workspace,
                                                           GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelBroadcastMul<DTYPE_X> op;
    op.Init(x, scale, y, tilingData);
    op.Process();
}
