// Kernel of IndexSelectCustom. x is [outer, n, inner] around axis dim and y [outer, k, inner];
// output row q = o * k + j is x's row (o, indices[j]). Each core owns a contiguous run of
// output rows, so its output is one contiguous range of y. A tile gathers up to rowsPerTile
// rows into UB on a 32 B row pitch: output rows whose source rows follow each other in x
// (consecutive indices, or the last index of one o and the first of the next) are one
// multi-row DataCopyPad; a row repeating the previous row's source (repeat_kv's j / group) is
// not copied from GM but duplicated in UB from the row before it; an index outside [0, n)
// gives a row of zeros. The rows move to the output queue and leave with one DataCopyPad.
// Rows longer than a tile go in column chunks. The indices are loaded into UB once per core,
// and up to 256 of them into scalar registers when the core's rows revisit them.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_TILE_ROWS = 1024;   // rows per tile (the tiling caps rowsPerTile at this)
constexpr uint32_t MAX_CACHED_INDICES = 256;
constexpr uint8_t ROW_COPIED = 0;          // row kinds of the last CopyIn
constexpr uint8_t ROW_REPEAT = 1;
constexpr uint8_t ROW_INVALID = 2;

template <typename T>
class KernelIndexSelect {
    using Bits = std::conditional_t<sizeof(T) == 2, int16_t, int32_t>;  // zero fill of any dtype

public:
    __aicore__ inline KernelIndexSelect() {}
    template <typename Tiling>
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR indices, GM_ADDR y, const Tiling& tiling)
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
        axisLen = tiling.axisLen;
        indexNum = tiling.indexNum;
        inner = tiling.inner;
        colChunk = tiling.colChunk;
        rowPitch = tiling.rowPitch;
        rowsPerTile = tiling.rowsPerTile;
        chunkNum = (inner + colChunk - 1) / colChunk;
        indicesInUb = tiling.indicesInUb != 0;

        xGm.SetGlobalBuffer((__gm__ T*)x);
        yGm.SetGlobalBuffer((__gm__ T*)y);
        idxGm.SetGlobalBuffer((__gm__ int32_t*)indices, indexNum);
        pipe.InitBuffer(inQueue, tiling.bufferNum, rowsPerTile * rowPitch * sizeof(T));
        pipe.InitBuffer(outQueue, tiling.bufferNum, rowsPerTile * rowPitch * sizeof(T));
        if (indicesInUb) {
            pipe.InitBuffer(idxBuf, (indexNum * sizeof(int32_t) + 31) / 32 * 32);
        }
    }
    __aicore__ inline void Process()
    {
        if (blockRows == 0) {
            return;
        }
        if (indicesInUb) {
            LoadIndices();
            // A core whose rows visit every index at least once reads them from registers.
            if (indexNum <= MAX_CACHED_INDICES && blockRows >= indexNum) {
                AscendC::LocalTensor<int32_t> idx = idxBuf.Get<int32_t>();
                for (uint32_t j = 0; j < indexNum; j++) {
                    idxCache[j] = idx.GetValue(j);
                }
                indicesCached = true;
            }
        }
        if (chunkNum == 1) {
            for (uint32_t done = 0; done < blockRows; done += rowsPerTile) {
                uint32_t rows = blockRows - done < rowsPerTile ? blockRows - done : rowsPerTile;
                CopyIn(rowStart + done, rows, 0, inner);
                Compute(rowStart + done, rows);
                CopyOut(rowStart + done, rows, 0, inner);
            }
            return;
        }
        for (uint32_t r = 0; r < blockRows; r++) {
            for (uint32_t c = 0; c < chunkNum; c++) {
                uint32_t col = c * colChunk;
                uint32_t len = inner - col < colChunk ? inner - col : colChunk;
                CopyIn(rowStart + r, 1, col, len);
                Compute(rowStart + r, 1);
                CopyOut(rowStart + r, 1, col, len);
            }
        }
    }

private:
    __aicore__ inline void LoadIndices()
    {
        AscendC::LocalTensor<int32_t> idx = idxBuf.Get<int32_t>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(indexNum * sizeof(int32_t)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<int32_t> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(idx, idxGm, copyParams, padParams);
        // The scalar unit reads the indices only after the copy has landed.
        event_t eventId = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::MTE2_S));
        AscendC::SetFlag<AscendC::HardEvent::MTE2_S>(eventId);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_S>(eventId);
    }
    __aicore__ inline int32_t IndexAt(uint32_t j)
    {
        if (indicesCached) {
            return idxCache[j];
        }
        return indicesInUb ? idxBuf.Get<int32_t>().GetValue(j) : idxGm.GetValue(j);
    }
    __aicore__ inline bool Valid(int32_t src) const { return src >= 0 && static_cast<uint32_t>(src) < axisLen; }
    __aicore__ inline void CopyIn(uint64_t firstRow, uint32_t rows, uint32_t col, uint32_t len)
    {
        AscendC::LocalTensor<T> in = inQueue.AllocTensor<T>();
        // Output row q = o * k + j; walk (o, j) without a division per row.
        uint64_t o = firstRow / indexNum;
        uint32_t j = static_cast<uint32_t>(firstRow - o * indexNum);
        invalidRows = 0;
        repeatRows = 0;
        uint64_t prevSrcRow = 0;
        bool prevValid = false;
        uint64_t runSrcRow = 0;
        uint32_t runSlot = 0;
        uint32_t runLen = 0;
        for (uint32_t r = 0; r < rows; r++) {
            int32_t src = IndexAt(j);
            if (!Valid(src)) {
                FlushRun(in, runSlot, runSrcRow, runLen, col, len);
                runLen = 0;
                rowKind[r] = ROW_INVALID;
                invalidRows++;
                prevValid = false;
            } else {
                uint64_t srcRow = o * axisLen + static_cast<uint32_t>(src);
                if (prevValid && srcRow == prevSrcRow) {
                    FlushRun(in, runSlot, runSrcRow, runLen, col, len);
                    runLen = 0;
                    rowKind[r] = ROW_REPEAT;
                    repeatRows++;
                } else {
                    if (runLen == 0 || srcRow != prevSrcRow + 1 || !prevValid) {
                        FlushRun(in, runSlot, runSrcRow, runLen, col, len);
                        runSlot = r;
                        runSrcRow = srcRow;
                        runLen = 0;
                    }
                    runLen++;
                    rowKind[r] = ROW_COPIED;
                }
                prevSrcRow = srcRow;
                prevValid = true;
            }
            if (++j == indexNum) {
                j = 0;
                o++;
            }
        }
        FlushRun(in, runSlot, runSrcRow, runLen, col, len);
        inQueue.EnQue(in);
    }
    // runLen source rows following each other in x, from srcRow on, into UB rows runSlot...
    __aicore__ inline void FlushRun(const AscendC::LocalTensor<T>& in, uint32_t runSlot, uint64_t srcRow,
                                    uint32_t runLen, uint32_t col, uint32_t len)
    {
        if (runLen == 0) {
            return;
        }
        uint32_t rowBytes = len * sizeof(T);
        uint32_t dstGap = (rowPitch * sizeof(T) - (rowBytes + 31) / 32 * 32) / 32;
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(runLen), rowBytes,
                                              static_cast<uint32_t>((inner - len) * sizeof(T)), dstGap, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(in[runSlot * rowPitch], xGm[srcRow * inner + col], copyParams, padParams);
    }
    __aicore__ inline void Compute(uint64_t firstRow, uint32_t rows)
    {
        AscendC::LocalTensor<T> in = inQueue.DeQue<T>();
        AscendC::LocalTensor<T> out = outQueue.AllocTensor<T>();
        AscendC::DataCopy(out, in, rows * rowPitch);
        // Repeated rows copy the row before them (already final, the vector pipe runs in
        // order); rows with an index outside [0, n) become zeros.
        if (invalidRows > 0 || repeatRows > 0) {
            for (uint32_t r = 0; r < rows; r++) {
                if (rowKind[r] == ROW_REPEAT) {
                    AscendC::DataCopy(out[r * rowPitch], out[(r - 1) * rowPitch], rowPitch);
                } else if (rowKind[r] == ROW_INVALID) {
                    AscendC::Duplicate(out[r * rowPitch].template ReinterpretCast<Bits>(), static_cast<Bits>(0),
                                       static_cast<int32_t>(rowPitch));
                }
            }
        }
        outQueue.EnQue<T>(out);
        inQueue.FreeTensor(in);
    }
    __aicore__ inline void CopyOut(uint64_t firstRow, uint32_t rows, uint32_t col, uint32_t len)
    {
        AscendC::LocalTensor<T> out = outQueue.DeQue<T>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(len * sizeof(T)), 0,
                                              0, 0};
        AscendC::DataCopyPad(yGm[firstRow * inner + col], out, copyParams);
        outQueue.FreeTensor(out);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> idxBuf;
    AscendC::GlobalTensor<T> xGm, yGm;
    AscendC::GlobalTensor<int32_t> idxGm;
    uint64_t rowStart = 0;
    uint32_t blockRows = 0;
    uint32_t axisLen = 0;
    uint32_t indexNum = 0;
    uint32_t inner = 0;
    uint32_t colChunk = 0;
    uint32_t rowPitch = 0;
    uint32_t rowsPerTile = 0;
    uint32_t chunkNum = 0;
    bool indicesInUb = false;
    uint32_t invalidRows = 0;  // rows of the last CopyIn with an index outside the axis
    uint32_t repeatRows = 0;   // rows of the last CopyIn repeating the previous row's source
    bool indicesCached = false;
    int32_t idxCache[MAX_CACHED_INDICES];
    uint8_t rowKind[MAX_TILE_ROWS];
};

extern "C" __global__ __aicore__ void index_select_custom(GM_ADDR x, GM_ADDR indices, GM_ADDR y, GM_ADDR workspace,
                                                          GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelIndexSelect<DTYPE_X> op;
    op.Init(x, indices, y, tilingData);
    op.Process();
}
