// Kernel of UpsampleNearestCustom (expert): y[n, c, oh, ow] = x[n, c, ih, iw] with
// ih = min(floor(oh / scale_h), H - 1) and iw likewise (PyTorch 'nearest', with the
// reciprocal scale and the products in float). Each core owns a range of output rows.
// Rows go in column chunks (one chunk, the whole row, unless the row does not fit in UB).
// Per chunk a byte-offset table of its source columns is built; per tile, the input
// columns the chunk reads come into UB, one Gather per output row picks them, and the
// tile's output chunks leave with one strided copy. Plane mode (many small planes): a tile
// of whole planes comes in with one copy, one Gather through a table built once per core
// makes all its output rows, one copy takes them out.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// TilingT is the tiling class GET_TILING_DATA yields.
template <typename T, typename TilingT>
class KernelUpsampleNearest {
public:
    __aicore__ inline KernelUpsampleNearest() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const TilingT& tiling)
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
        xGm.SetGlobalBuffer((__gm__ T*)x);
        if (tiling.planeMode != 0) {  // blockRows and rowOffset count planes
            uint32_t tileRows = tiling.planesPerTile * tiling.outH;
            uint64_t planeElems = static_cast<uint64_t>(tiling.outH) * tiling.outW;
            yGm.SetGlobalBuffer((__gm__ T*)y + this->rowOffset * planeElems, this->blockRows * planeElems);
            pipe.InitBuffer(inQueueX, BUFFER_NUM, tiling.planesPerTile * tiling.inH * tiling.inPitch * sizeof(T));
            pipe.InitBuffer(outQueueY, BUFFER_NUM, tileRows * tiling.outPitch * sizeof(T));
            pipe.InitBuffer(offsetBuf, tileRows * tiling.outPitch * sizeof(uint32_t));
            pipe.InitBuffer(coordBuf, tiling.outPitch * sizeof(float));
            pipe.InitBuffer(columnBuf, tiling.outPitch * sizeof(int32_t));
            return;
        }
        yGm.SetGlobalBuffer((__gm__ T*)y + static_cast<uint64_t>(this->rowOffset) * tiling.outW,
                            static_cast<uint64_t>(this->blockRows) * tiling.outW);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tiling.rowsPerTile * tiling.inPitch * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tiling.rowsPerTile * tiling.outPitch * sizeof(T));
        pipe.InitBuffer(offsetBuf, tiling.outPitch * sizeof(uint32_t));
        pipe.InitBuffer(coordBuf, tiling.outPitch * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        if (this->blockRows == 0) {
            return;
        }
        if (t.planeMode != 0) {
            ProcessPlanes();
            return;
        }
        for (uint32_t c0 = 0; c0 < t.outW; c0 += t.chunkW) {
            this->chunkCol = c0;
            this->chunkW = t.outW - c0 < t.chunkW ? t.outW - c0 : t.chunkW;
            this->srcCol = SourceColumn(c0);
            this->srcLen = SourceColumn(c0 + this->chunkW - 1) - this->srcCol + 1;
            BuildColumnOffsets();
            for (uint32_t r0 = 0; r0 < this->blockRows; r0 += t.rowsPerTile) {
                uint32_t rows = this->blockRows - r0 < t.rowsPerTile ? this->blockRows - r0 : t.rowsPerTile;
                CopyIn(r0, rows);
                Compute(r0, rows);
                CopyOut(r0, rows);
            }
        }
    }

private:
    // Plane mode: tiles of whole planes through one table built here.
    __aicore__ inline void ProcessPlanes()
    {
        BuildPlaneTable(this->blockRows < t.planesPerTile ? this->blockRows : t.planesPerTile);
        for (uint32_t p0 = 0; p0 < this->blockRows; p0 += t.planesPerTile) {
            uint32_t planes = this->blockRows - p0 < t.planesPerTile ? this->blockRows - p0 : t.planesPerTile;
            uint32_t outRows = planes * t.outH;
            AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
            AscendC::DataCopyExtParams inParams{static_cast<uint16_t>(planes * t.inH),
                                                static_cast<uint32_t>(t.inW * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
            uint64_t firstInRow = static_cast<uint64_t>(this->rowOffset + p0) * t.inH;
            AscendC::DataCopyPad(xLocal, xGm[firstInRow * t.inW], inParams, padParams);
            inQueueX.EnQue(xLocal);

            xLocal = inQueueX.DeQue<T>();
            AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
            AscendC::Gather(yLocal, xLocal, offsetBuf.Get<uint32_t>(), 0, outRows * t.outPitch);
            outQueueY.EnQue<T>(yLocal);
            inQueueX.FreeTensor(xLocal);

            yLocal = outQueueY.DeQue<T>();
            AscendC::DataCopyExtParams outParams{static_cast<uint16_t>(outRows), static_cast<uint32_t>(t.outW * sizeof(T)),
                                                 0, 0, 0};
            AscendC::DataCopyPad(yGm[static_cast<uint64_t>(p0) * t.outH * t.outW], yLocal, outParams);
            outQueueY.FreeTensor(yLocal);
        }
    }
    // table[r * outPitch + ow]: byte offset, in a tile's input rows (inPitch apart), of the
    // source of output row r (of `planes` planes) and column ow; the pitch's padding columns
    // read column W - 1.
    __aicore__ inline void BuildPlaneTable(uint32_t planes)
    {
        AscendC::LocalTensor<float> coord = coordBuf.Get<float>();
        AscendC::LocalTensor<int32_t> column = columnBuf.Get<int32_t>();
        AscendC::LocalTensor<int32_t> table = offsetBuf.Get<int32_t>();
        AscendC::CreateVecIndex(coord, 0.0f, t.outPitch);
        AscendC::Muls(coord, coord, t.invScaleW, t.outPitch);
        AscendC::Cast(column, coord, AscendC::RoundMode::CAST_FLOOR, t.outPitch);
        AscendC::Mins(column, column, static_cast<int32_t>(t.inW - 1), t.outPitch);
        AscendC::Muls(column, column, static_cast<int32_t>(sizeof(T)), t.outPitch);
        for (uint32_t p = 0; p < planes; p++) {
            for (uint32_t oh = 0; oh < t.outH; oh++) {
                uint32_t ih = static_cast<uint32_t>(static_cast<float>(oh) * t.invScaleH);
                ih = ih < t.inH - 1 ? ih : t.inH - 1;
                int32_t rowBytes = static_cast<int32_t>((p * t.inH + ih) * t.inPitch * sizeof(T));
                AscendC::Adds(table[(p * t.outH + oh) * t.outPitch], column, rowBytes, t.outPitch);
            }
        }
    }
    // min(floor(ow * invScaleW), W - 1), the same float steps as the vector table.
    __aicore__ inline uint32_t SourceColumn(uint32_t ow) const
    {
        uint32_t iw = static_cast<uint32_t>(static_cast<float>(ow) * t.invScaleW);
        return iw < t.inW - 1 ? iw : t.inW - 1;
    }
    // offset[i] = (min(floor((chunkCol + i) * invScaleW), W - 1) - srcCol) * sizeof(T).
    __aicore__ inline void BuildColumnOffsets()
    {
        AscendC::LocalTensor<float> coord = coordBuf.Get<float>();
        AscendC::LocalTensor<int32_t> offsets = offsetBuf.Get<int32_t>();
        uint32_t n = this->chunkW;
        AscendC::CreateVecIndex(coord, static_cast<float>(this->chunkCol), n);
        AscendC::Muls(coord, coord, t.invScaleW, n);
        AscendC::Cast(offsets, coord, AscendC::RoundMode::CAST_FLOOR, n);
        AscendC::Mins(offsets, offsets, static_cast<int32_t>(t.inW - 1), n);
        if (this->srcCol != 0) {
            AscendC::Adds(offsets, offsets, -static_cast<int32_t>(this->srcCol), n);
        }
        AscendC::Muls(offsets, offsets, static_cast<int32_t>(sizeof(T)), n);
    }
    // Flat input row (plane * H + ih) that output row `outRow` reads.
    __aicore__ inline uint64_t SourceRow(uint32_t outRow) const
    {
        uint32_t plane = outRow / t.outH;
        uint32_t oh = outRow % t.outH;
        uint32_t ih = static_cast<uint32_t>(static_cast<float>(oh) * t.invScaleH);
        ih = ih < t.inH - 1 ? ih : t.inH - 1;
        return static_cast<uint64_t>(plane) * t.inH + ih;
    }
    __aicore__ inline void CopyIn(uint32_t r0, uint32_t rows)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        // expert: one strided copy per tile. The flat source row never decreases along the
        // output rows, so a tile reads the contiguous GM rows [first, last]: when they fit
        // the tile's input buffer they come in one DataCopyPad (each row fetched once
        // however many output rows repeat it) instead of one copy per output row.
        uint64_t first = SourceRow(this->rowOffset + r0);
        uint64_t last = SourceRow(this->rowOffset + r0 + rows - 1);
        uint32_t spanBytes = this->srcLen * sizeof(T);
        if (last - first + 1 <= t.rowsPerTile) {
            this->tileFirstRow = first;
            this->tileContiguous = true;
            uint32_t ubGap = (t.inPitch * sizeof(T) - (spanBytes + 31) / 32 * 32) / 32;
            AscendC::DataCopyExtParams blockParams{static_cast<uint16_t>(last - first + 1), spanBytes,
                                                   static_cast<uint32_t>((t.inW - this->srcLen) * sizeof(T)), ubGap, 0};
            AscendC::DataCopyPad(xLocal, xGm[first * t.inW + this->srcCol], blockParams, padParams);
            inQueueX.EnQue(xLocal);
            return;
        }
        this->tileContiguous = false;  // each output row's source sits in its own slot
        AscendC::DataCopyExtParams copyParams{1, spanBytes, 0, 0, 0};
        for (uint32_t r = 0; r < rows; r++) {
            uint32_t outRow = this->rowOffset + r0 + r;
            uint32_t plane = outRow / t.outH;
            uint32_t oh = outRow % t.outH;
            uint32_t ih = static_cast<uint32_t>(static_cast<float>(oh) * t.invScaleH);
            ih = ih < t.inH - 1 ? ih : t.inH - 1;
            uint64_t inRow = static_cast<uint64_t>(plane) * t.inH + ih;
            AscendC::DataCopyPad(xLocal[r * t.inPitch], xGm[inRow * t.inW + this->srcCol], copyParams, padParams);
        }
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void Compute(uint32_t r0, uint32_t rows)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        AscendC::LocalTensor<uint32_t> offsets = offsetBuf.Get<uint32_t>();
        for (uint32_t r = 0; r < rows; r++) {
            uint64_t slot = !this->tileContiguous ? r : SourceRow(this->rowOffset + r0 + r) - this->tileFirstRow;
            AscendC::Gather(yLocal[r * t.outPitch], xLocal, offsets, static_cast<uint32_t>(slot * t.inPitch * sizeof(T)),
                            this->chunkW);
        }
        outQueueY.EnQue<T>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t r0, uint32_t rows)
    {
        AscendC::LocalTensor<T> yLocal = outQueueY.DeQue<T>();
        uint32_t ubGap = (t.outPitch * sizeof(T) - (this->chunkW * sizeof(T) + 31) / 32 * 32) / 32;
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(this->chunkW * sizeof(T)),
                                              ubGap, static_cast<uint32_t>((t.outW - this->chunkW) * sizeof(T)), 0};
        AscendC::DataCopyPad(yGm[static_cast<uint64_t>(r0) * t.outW + this->chunkCol], yLocal, copyParams);
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> offsetBuf, coordBuf, columnBuf;
    AscendC::GlobalTensor<T> xGm, yGm;
    TilingT t;
    uint32_t blockRows = 0;
    uint32_t rowOffset = 0;
    uint64_t tileFirstRow = 0;    // flat source row in UB slot 0 when the tile's rows are contiguous
    bool tileContiguous = false;  // false: one UB slot per output row
    uint32_t chunkCol = 0;        // first output column of the current chunk
    uint32_t chunkW = 0;          // its output columns
    uint32_t srcCol = 0;          // first input column it reads
    uint32_t srcLen = 0;          // input columns it reads
};

extern "C" __global__ __aicore__ void upsample_nearest_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelUpsampleNearest<DTYPE_X, decltype(tilingData)> op;
    op.Init(x, y, tilingData);
    op.Process();
}
