// Kernel of IndexSelectCustom. x is [outer, n, inner] around axis dim and y [outer, k, inner];
// output row q = o * k + j is x's row (o, indices[j]). Each core owns a contiguous run of
// output rows, so its output is one contiguous range of y. A tile gathers up to rowsPerTile
// rows into UB (one DataCopyPad per row, 32 B row pitch), moves them to the output queue
// (zeros for an index outside [0, n)) and writes them with one DataCopyPad. Rows longer than
// a tile go in column chunks. The indices are loaded into UB once per core.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

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
        return indicesInUb ? idxBuf.Get<int32_t>().GetValue(j) : idxGm.GetValue(j);
    }
    __aicore__ inline bool Valid(int32_t src) const { return src >= 0 && static_cast<uint32_t>(src) < axisLen; }
    __aicore__ inline void CopyIn(uint64_t firstRow, uint32_t rows, uint32_t col, uint32_t len)
    {
        AscendC::LocalTensor<T> in = inQueue.AllocTensor<T>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        // Output row q = o * k + j; walk (o, j) without a division per row.
        uint64_t o = firstRow / indexNum;
        uint32_t j = static_cast<uint32_t>(firstRow - o * indexNum);
        invalidRows = 0;
        for (uint32_t r = 0; r < rows; r++) {
            int32_t src = IndexAt(j);
            if (Valid(src)) {
                uint64_t srcRow = o * axisLen + static_cast<uint32_t>(src);
                AscendC::DataCopyPad(in[r * rowPitch], xGm[srcRow * inner + col], copyParams, padParams);
            } else {
                invalidRows++;
            }
            if (++j == indexNum) {
                j = 0;
                o++;
            }
        }
        inQueue.EnQue(in);
    }
    __aicore__ inline void Compute(uint64_t firstRow, uint32_t rows)
    {
        AscendC::LocalTensor<T> in = inQueue.DeQue<T>();
        AscendC::LocalTensor<T> out = outQueue.AllocTensor<T>();
        AscendC::DataCopy(out, in, rows * rowPitch);
        // Rows whose index is outside [0, n) (counted by CopyIn) become zeros.
        uint32_t j = static_cast<uint32_t>(firstRow % indexNum);
        for (uint32_t r = 0; r < rows && invalidRows > 0; r++) {
            if (!Valid(IndexAt(j))) {
                AscendC::Duplicate(out[r * rowPitch].template ReinterpretCast<Bits>(), static_cast<Bits>(0),
                                   static_cast<int32_t>(rowPitch));
            }
            j = j + 1 == indexNum ? 0 : j + 1;
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
};

extern "C" __global__ __aicore__ void index_select_custom(GM_ADDR x, GM_ADDR indices, GM_ADDR y, GM_ADDR workspace,
                                                          GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelIndexSelect<DTYPE_X> op;
    op.Init(x, indices, y, tilingData);
    op.Process();
}
