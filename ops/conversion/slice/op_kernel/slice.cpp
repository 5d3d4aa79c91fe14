// Kernel of SliceCustom: y[r, j] = x[r, begin + j * step]. Each core owns a contiguous
// range of rows; a tile is several whole rows (or a column chunk of one long row). Step 1
// is a strided copy GM->UB->GM through one double-buffered queue (the skipped columns are
// the GM-side gaps). A larger step copies each row's span [begin, last] in with one
// DataCopyPad per tile, compacts it with one Gather (byte offsets built once per core with
// CreateVecIndex/Muls/Adds), and writes the tile with one DataCopyPad.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelSlice {
public:
    __aicore__ inline KernelSlice() {}
    template <typename Tiling>
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const Tiling& tiling)
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
        cols = tiling.cols;
        begin = tiling.begin;
        step = tiling.step;
        outCols = tiling.outCols;
        chunkOut = tiling.chunkOut;
        inPitch = tiling.inPitch;
        outPitch = tiling.outPitch;
        rowsPerTile = tiling.rowsPerTile;
        xGm.SetGlobalBuffer((__gm__ T*)x);
        yGm.SetGlobalBuffer((__gm__ T*)y);
        if (step == 1) {
            pipe.InitBuffer(copyQueue, tiling.bufferNum, rowsPerTile * inPitch * sizeof(T));
        } else {
            pipe.InitBuffer(inQueue, tiling.bufferNum, rowsPerTile * inPitch * sizeof(T));
            pipe.InitBuffer(outQueue, tiling.bufferNum, rowsPerTile * outPitch * sizeof(T));
            pipe.InitBuffer(offsetBuf, rowsPerTile * outPitch * sizeof(uint32_t));
        }
    }
    __aicore__ inline void Process()
    {
        if (blockRows == 0) {
            return;
        }
        if (step != 1) {
            BuildOffsets();
        }
        for (uint32_t done = 0; done < blockRows; done += rowsPerTile) {
            uint32_t rows = blockRows - done < rowsPerTile ? blockRows - done : rowsPerTile;
            uint64_t row = rowStart + done;
            for (uint32_t o = 0; o < outCols; o += chunkOut) {
                uint32_t len = outCols - o < chunkOut ? outCols - o : chunkOut;
                if (step == 1) {
                    CopyThrough(row, rows, o, len);
                } else {
                    CopyIn(row, rows, o, len);
                    Compute(rows);
                    CopyOut(row, rows, o, len);
                }
            }
        }
    }

private:
    // offsets[r * outPitch + j] = bytes of (r * inPitch + min(j, chunkOut - 1) * step).
    __aicore__ inline void BuildOffsets()
    {
        AscendC::LocalTensor<int32_t> off = offsetBuf.Get<int32_t>();
        AscendC::CreateVecIndex(off, static_cast<int32_t>(0), outPitch);
        AscendC::Mins(off, off, static_cast<int32_t>(chunkOut - 1), outPitch);
        AscendC::Muls(off, off, static_cast<int32_t>(step * sizeof(T)), outPitch);
        for (uint32_t r = 1; r < rowsPerTile; r++) {
            AscendC::Adds(off[r * outPitch], off, static_cast<int32_t>(r * inPitch * sizeof(T)), outPitch);
        }
    }
    __aicore__ inline void CopyThrough(uint64_t row, uint32_t rows, uint32_t o, uint32_t len)
    {
        AscendC::LocalTensor<T> t = copyQueue.AllocTensor<T>();
        AscendC::DataCopyExtParams inParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(len * sizeof(T)),
                                            static_cast<uint32_t>((cols - len) * sizeof(T)), 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(t, xGm[row * cols + begin + o], inParams, padParams);
        copyQueue.EnQue(t);
        t = copyQueue.DeQue<T>();
        AscendC::DataCopyExtParams outParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(len * sizeof(T)), 0,
                                             static_cast<uint32_t>((outCols - len) * sizeof(T)), 0};
        AscendC::DataCopyPad(yGm[row * outCols + o], t, outParams);
        copyQueue.FreeTensor(t);
    }
    __aicore__ inline void CopyIn(uint64_t row, uint32_t rows, uint32_t o, uint32_t len)
    {
        AscendC::LocalTensor<T> in = inQueue.AllocTensor<T>();
        uint32_t span = (len - 1) * step + 1;
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(span * sizeof(T)),
                                              static_cast<uint32_t>((cols - span) * sizeof(T)), 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(in, xGm[row * cols + begin + static_cast<uint64_t>(o) * step], copyParams, padParams);
        inQueue.EnQue(in);
    }
    __aicore__ inline void Compute(uint32_t rows)
    {
        AscendC::LocalTensor<T> in = inQueue.DeQue<T>();
        AscendC::LocalTensor<T> out = outQueue.AllocTensor<T>();
        AscendC::LocalTensor<uint32_t> off = offsetBuf.Get<uint32_t>();
        AscendC::Gather(out, in, off, 0, rows * outPitch);
        outQueue.EnQue<T>(out);
        inQueue.FreeTensor(in);
    }
    __aicore__ inline void CopyOut(uint64_t row, uint32_t rows, uint32_t o, uint32_t len)
    {
        AscendC::LocalTensor<T> out = outQueue.DeQue<T>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(len * sizeof(T)), 0,
                                              static_cast<uint32_t>((outCols - len) * sizeof(T)), 0};
        AscendC::DataCopyPad(yGm[row * outCols + o], out, copyParams);
        outQueue.FreeTensor(out);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQueBind<AscendC::QuePosition::VECIN, AscendC::QuePosition::VECOUT, BUFFER_NUM> copyQueue;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> offsetBuf;
    AscendC::GlobalTensor<T> xGm, yGm;
    uint64_t rowStart = 0;
    uint32_t blockRows = 0;
    uint32_t cols = 0;
    uint32_t begin = 0;
    uint32_t step = 1;
    uint32_t outCols = 0;
    uint32_t chunkOut = 0;
    uint32_t inPitch = 0;
    uint32_t outPitch = 0;
    uint32_t rowsPerTile = 0;
};

extern "C" __global__ __aicore__ void slice_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelSlice<DTYPE_X> op;
    op.Init(x, y, tilingData);
    op.Process();
}
