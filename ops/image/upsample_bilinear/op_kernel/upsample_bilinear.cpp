// Kernel of UpsampleBilinearCustom: PyTorch 'bilinear' on [N, C, H, W]. For an output
// pixel the source coordinate is src = dst * ratio (align_corners) or
// max((dst + 0.5) * ratio - 0.5, 0); i0 = floor(src), i1 = min(i0 + 1, size - 1),
// lambda = src - i0, all in float. Each core owns a range of output rows. Rows go in
// column chunks (one chunk, the whole row, unless the row does not fit in UB); per chunk
// the column offset and weight tables are built. Per output row the input columns of
// the chunk from the two source rows come into UB, are blended vertically in float, then
// the two column neighbours are gathered through the offset tables and blended with the
// per-column weights. The tile's output chunks leave with one strided copy.
//
// Plane mode (many small planes): a tile is whole planes. Its input rows come in with one
// copy; per output row r of a tile, its two source rows' offsets and weights are the same
// in every tile, as are the column offsets and weights, so tables built once per core let
// two Gathers, two Muls and an Add blend a whole tile vertically (into rows of input
// width), and two more Gathers, Muls and an Add horizontally; one copy takes it out.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// TilingT is the tiling class GET_TILING_DATA yields.
template <typename T, typename TilingT>
class KernelUpsampleBilinear {
public:
    __aicore__ inline KernelUpsampleBilinear() {}
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
        if (tiling.planeMode != 0) {
            InitPlanes(y);
            return;
        }
        yGm.SetGlobalBuffer((__gm__ T*)y + static_cast<uint64_t>(this->rowOffset) * tiling.outW,
                            static_cast<uint64_t>(this->blockRows) * tiling.outW);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tiling.rowsPerTile * 2 * tiling.inPitch * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tiling.rowsPerTile * tiling.outPitch * sizeof(T));
        uint32_t outFloats = tiling.outPitch * sizeof(float);
        pipe.InitBuffer(offset0Buf, outFloats);
        pipe.InitBuffer(offset1Buf, outFloats);
        pipe.InitBuffer(weight0Buf, outFloats);
        pipe.InitBuffer(weight1Buf, outFloats);
        pipe.InitBuffer(leftBuf, outFloats);
        pipe.InitBuffer(rightBuf, outFloats);
        pipe.InitBuffer(row0Buf, tiling.inPitch * sizeof(float));
        pipe.InitBuffer(row1Buf, tiling.inPitch * sizeof(float));
        pipe.InitBuffer(blendBuf, tiling.inPitch * sizeof(float));
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
            uint32_t first = static_cast<uint32_t>(SourceCoord(c0, t.ratioW));
            uint32_t last = static_cast<uint32_t>(SourceCoord(c0 + this->chunkW - 1, t.ratioW)) + 1;
            first = first < t.inW - 1 ? first : t.inW - 1;
            last = last < t.inW - 1 ? last : t.inW - 1;
            this->srcCol = first;
            this->srcLen = last - first + 1;
            BuildColumnTables();
            for (uint32_t r0 = 0; r0 < this->blockRows; r0 += t.rowsPerTile) {
                uint32_t rows = this->blockRows - r0 < t.rowsPerTile ? this->blockRows - r0 : t.rowsPerTile;
                CopyIn(r0, rows);
                Compute(r0, rows);
                CopyOut(r0, rows);
            }
        }
    }

private:
    // Plane mode: blockRows and rowOffset count planes. Tile buffers hold tileRows output
    // rows (outPitch apart) and planesPerTile * H input rows (inPitch apart).
    __aicore__ inline void InitPlanes(GM_ADDR y)
    {
        uint64_t planeElems = static_cast<uint64_t>(t.outH) * t.outW;
        yGm.SetGlobalBuffer((__gm__ T*)y + this->rowOffset * planeElems, this->blockRows * planeElems);
        this->tileRows = t.planesPerTile * t.outH;
        uint32_t inElems = t.planesPerTile * t.inH * t.inPitch;
        uint32_t outFloats = this->tileRows * t.outPitch * sizeof(float);
        uint32_t rowFloats = this->tileRows * t.inPitch * sizeof(float);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, inElems * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, this->tileRows * t.outPitch * sizeof(T));
        pipe.InitBuffer(offset0Buf, outFloats);
        pipe.InitBuffer(offset1Buf, outFloats);
        pipe.InitBuffer(weight0Buf, outFloats);
        pipe.InitBuffer(weight1Buf, outFloats);
        pipe.InitBuffer(leftBuf, outFloats);
        pipe.InitBuffer(rightBuf, outFloats);
        pipe.InitBuffer(row0Buf, rowFloats);
        pipe.InitBuffer(row1Buf, rowFloats);
        pipe.InitBuffer(blendBuf, 4 * rowFloats);  // the four per-row tables
        if constexpr (!std::is_same_v<T, float>) {
            pipe.InitBuffer(floatInBuf, inElems * sizeof(float));
        }
        pipe.InitBuffer(coordBuf, t.outPitch * sizeof(float));
        pipe.InitBuffer(indexBuf, t.inPitch * sizeof(int32_t));
    }
    // Tables for `planes` planes of output rows. Horizontal (tileRows x outPitch): byte
    // offsets of the two column neighbours in the vertically blended tile and their
    // weights; the pitch's padding columns read column W - 1. Vertical (tileRows x
    // inPitch): byte offsets of every column of the two source rows in the tile's float
    // input rows, and the two row weights.
    __aicore__ inline void BuildPlaneTables(uint32_t planes)
    {
        uint32_t rows = planes * t.outH;
        uint32_t n = t.outPitch;
        AscendC::LocalTensor<float> coord = coordBuf.Get<float>();
        AscendC::LocalTensor<int32_t> off0 = offset0Buf.Get<int32_t>();
        AscendC::LocalTensor<int32_t> off1 = offset1Buf.Get<int32_t>();
        AscendC::LocalTensor<float> w0 = weight0Buf.Get<float>();
        AscendC::LocalTensor<float> w1 = weight1Buf.Get<float>();
        AscendC::CreateVecIndex(coord, 0.0f, n);
        if (t.alignCorners != 0) {
            AscendC::Muls(coord, coord, t.ratioW, n);
        } else {
            AscendC::Adds(coord, coord, 0.5f, n);
            AscendC::Muls(coord, coord, t.ratioW, n);
            AscendC::Adds(coord, coord, -0.5f, n);
            AscendC::Maxs(coord, coord, 0.0f, n);
        }
        AscendC::Cast(off0, coord, AscendC::RoundMode::CAST_FLOOR, n);
        AscendC::Cast(w0, off0, AscendC::RoundMode::CAST_NONE, n);  // floor(src) as float
        AscendC::Sub(w1, coord, w0, n);                             // lambda1 = src - i0
        AscendC::Duplicate(w0, 1.0f, n);
        AscendC::Sub(w0, w0, w1, n);                                // lambda0 = 1 - lambda1
        int32_t last = static_cast<int32_t>(t.inW - 1);
        AscendC::Adds(off1, off0, 1, n);
        AscendC::Mins(off1, off1, last, n);
        AscendC::Mins(off0, off0, last, n);
        AscendC::Muls(off0, off0, static_cast<int32_t>(sizeof(float)), n);
        AscendC::Muls(off1, off1, static_cast<int32_t>(sizeof(float)), n);
        // Rows [m, m + c) are rows [0, c) moved m input rows on: doubling copies.
        for (uint32_t m = 1; m < rows; m *= 2) {
            uint32_t c = rows - m < m ? rows - m : m;
            int32_t shift = static_cast<int32_t>(m * t.inPitch * sizeof(float));
            AscendC::Adds(off0[m * n], off0, shift, c * n);
            AscendC::Adds(off1[m * n], off1, shift, c * n);
            AscendC::Adds(w0[m * n], w0, 0.0f, c * n);
            AscendC::Adds(w1[m * n], w1, 0.0f, c * n);
        }

        uint32_t rowElems = this->tileRows * t.inPitch;
        AscendC::LocalTensor<int32_t> column = indexBuf.Get<int32_t>();
        AscendC::LocalTensor<int32_t> src0 = blendBuf.Get<int32_t>();
        AscendC::LocalTensor<int32_t> src1 = src0[rowElems];
        AscendC::LocalTensor<float> h0 = blendBuf.Get<float>()[2 * rowElems];
        AscendC::LocalTensor<float> h1 = blendBuf.Get<float>()[3 * rowElems];
        AscendC::CreateVecIndex(column, 0, t.inPitch);
        AscendC::Muls(column, column, static_cast<int32_t>(sizeof(float)), t.inPitch);
        for (uint32_t r = 0; r < rows; r++) {
            uint32_t p = r / t.outH;
            float src = SourceCoord(r % t.outH, t.ratioH);
            uint32_t i0 = static_cast<uint32_t>(src);
            float lambda1 = src - static_cast<float>(i0);
            uint32_t i1 = i0 + 1 < t.inH ? i0 + 1 : t.inH - 1;
            i0 = i0 < t.inH ? i0 : t.inH - 1;
            uint32_t at = r * t.inPitch;
            AscendC::Adds(src0[at], column, static_cast<int32_t>((p * t.inH + i0) * t.inPitch * sizeof(float)), t.inPitch);
            AscendC::Adds(src1[at], column, static_cast<int32_t>((p * t.inH + i1) * t.inPitch * sizeof(float)), t.inPitch);
            AscendC::Duplicate(h0[at], 1.0f - lambda1, t.inPitch);
            AscendC::Duplicate(h1[at], lambda1, t.inPitch);
        }
    }
    __aicore__ inline void ProcessPlanes()
    {
        BuildPlaneTables(this->blockRows < t.planesPerTile ? this->blockRows : t.planesPerTile);
        for (uint32_t p0 = 0; p0 < this->blockRows; p0 += t.planesPerTile) {
            uint32_t planes = this->blockRows - p0 < t.planesPerTile ? this->blockRows - p0 : t.planesPerTile;
            AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
            AscendC::DataCopyExtParams inParams{static_cast<uint16_t>(planes * t.inH),
                                                static_cast<uint32_t>(t.inW * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
            uint64_t firstInRow = static_cast<uint64_t>(this->rowOffset + p0) * t.inH;
            AscendC::DataCopyPad(xLocal, xGm[firstInRow * t.inW], inParams, padParams);
            inQueueX.EnQue(xLocal);

            xLocal = inQueueX.DeQue<T>();
            AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
            if constexpr (std::is_same_v<T, float>) {
                BlendPlanes(yLocal, xLocal, planes);
            } else {
                AscendC::LocalTensor<float> xFloat = floatInBuf.Get<float>();
                AscendC::Cast(xFloat, xLocal, AscendC::RoundMode::CAST_NONE, planes * t.inH * t.inPitch);
                BlendPlanes(yLocal, xFloat, planes);
            }
            outQueueY.EnQue<T>(yLocal);
            inQueueX.FreeTensor(xLocal);

            yLocal = outQueueY.DeQue<T>();
            AscendC::DataCopyExtParams outParams{static_cast<uint16_t>(planes * t.outH),
                                                 static_cast<uint32_t>(t.outW * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[static_cast<uint64_t>(p0) * t.outH * t.outW], yLocal, outParams);
            outQueueY.FreeTensor(yLocal);
        }
    }
    __aicore__ inline void BlendPlanes(const AscendC::LocalTensor<T>& yLocal, const AscendC::LocalTensor<float>& xFloat,
                                       uint32_t planes)
    {
        uint32_t rowElems = this->tileRows * t.inPitch;
        uint32_t nv = planes * t.outH * t.inPitch;
        uint32_t nh = planes * t.outH * t.outPitch;
        AscendC::LocalTensor<float> v0 = row0Buf.Get<float>();
        AscendC::LocalTensor<float> v1 = row1Buf.Get<float>();
        AscendC::LocalTensor<uint32_t> src0 = blendBuf.Get<uint32_t>();
        AscendC::LocalTensor<uint32_t> src1 = src0[rowElems];
        AscendC::LocalTensor<float> h0 = blendBuf.Get<float>()[2 * rowElems];
        AscendC::LocalTensor<float> h1 = blendBuf.Get<float>()[3 * rowElems];
        AscendC::Gather(v0, xFloat, src0, 0, nv);
        AscendC::Gather(v1, xFloat, src1, 0, nv);
        AscendC::Mul(v0, v0, h0, nv);
        AscendC::Mul(v1, v1, h1, nv);
        AscendC::Add(v0, v0, v1, nv);  // the vertical blend, one row per output row
        AscendC::LocalTensor<float> left = leftBuf.Get<float>();
        AscendC::LocalTensor<float> right = rightBuf.Get<float>();
        AscendC::Gather(left, v0, offset0Buf.Get<uint32_t>(), 0, nh);
        AscendC::Gather(right, v0, offset1Buf.Get<uint32_t>(), 0, nh);
        AscendC::Mul(left, left, weight0Buf.Get<float>(), nh);
        AscendC::Mul(right, right, weight1Buf.Get<float>(), nh);
        if constexpr (std::is_same_v<T, float>) {
            AscendC::Add(yLocal, left, right, nh);
        } else {
            AscendC::Add(left, left, right, nh);
            AscendC::Cast(yLocal, left, AscendC::RoundMode::CAST_RINT, nh);
        }
    }
    // Source coordinate of output row/column `dst` on the scalar unit (same float steps as
    // the vector version below).
    __aicore__ inline float SourceCoord(uint32_t dst, float ratio) const
    {
        if (t.alignCorners != 0) {
            return static_cast<float>(dst) * ratio;
        }
        float src = (static_cast<float>(dst) + 0.5f) * ratio - 0.5f;
        return src < 0.0f ? 0.0f : src;
    }
    __aicore__ inline void BuildColumnTables()
    {
        AscendC::LocalTensor<float> coord = leftBuf.Get<float>();
        AscendC::LocalTensor<float> floorF = rightBuf.Get<float>();
        AscendC::LocalTensor<int32_t> off0 = offset0Buf.Get<int32_t>();
        AscendC::LocalTensor<int32_t> off1 = offset1Buf.Get<int32_t>();
        AscendC::LocalTensor<float> w0 = weight0Buf.Get<float>();
        AscendC::LocalTensor<float> w1 = weight1Buf.Get<float>();
        uint32_t n = this->chunkW;
        AscendC::CreateVecIndex(coord, static_cast<float>(this->chunkCol), n);
        if (t.alignCorners != 0) {
            AscendC::Muls(coord, coord, t.ratioW, n);
        } else {
            AscendC::Adds(coord, coord, 0.5f, n);
            AscendC::Muls(coord, coord, t.ratioW, n);
            AscendC::Adds(coord, coord, -0.5f, n);
            AscendC::Maxs(coord, coord, 0.0f, n);
        }
        AscendC::Cast(off0, coord, AscendC::RoundMode::CAST_FLOOR, n);
        AscendC::Cast(floorF, off0, AscendC::RoundMode::CAST_NONE, n);
        AscendC::Sub(w1, coord, floorF, n);                    // lambda1 = src - i0
        AscendC::Duplicate(w0, 1.0f, n);
        AscendC::Sub(w0, w0, w1, n);                           // lambda0 = 1 - lambda1
        int32_t last = static_cast<int32_t>(t.inW - 1);
        AscendC::Adds(off1, off0, 1, n);
        AscendC::Mins(off1, off1, last, n);
        AscendC::Mins(off0, off0, last, n);
        if (this->srcCol != 0) {  // relative to the chunk's first input column
            AscendC::Adds(off0, off0, -static_cast<int32_t>(this->srcCol), n);
            AscendC::Adds(off1, off1, -static_cast<int32_t>(this->srcCol), n);
        }
        // Byte offsets into a float row.
        AscendC::Muls(off0, off0, static_cast<int32_t>(sizeof(float)), n);
        AscendC::Muls(off1, off1, static_cast<int32_t>(sizeof(float)), n);
    }
    __aicore__ inline void SourceRows(uint32_t outRow, uint64_t& row0, uint64_t& row1, float& lambda1) const
    {
        uint32_t plane = outRow / t.outH;
        float src = SourceCoord(outRow % t.outH, t.ratioH);
        uint32_t i0 = static_cast<uint32_t>(src);
        lambda1 = src - static_cast<float>(i0);
        uint32_t i1 = i0 + 1 < t.inH ? i0 + 1 : t.inH - 1;
        i0 = i0 < t.inH ? i0 : t.inH - 1;
        row0 = (static_cast<uint64_t>(plane) * t.inH + i0) * t.inW;
        row1 = (static_cast<uint64_t>(plane) * t.inH + i1) * t.inW;
    }
    __aicore__ inline void CopyIn(uint32_t r0, uint32_t rows)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(this->srcLen * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        for (uint32_t r = 0; r < rows; r++) {
            uint64_t row0 = 0;
            uint64_t row1 = 0;
            float lambda1 = 0.0f;
            SourceRows(this->rowOffset + r0 + r, row0, row1, lambda1);
            AscendC::DataCopyPad(xLocal[2 * r * t.inPitch], xGm[row0 + this->srcCol], copyParams, padParams);
            AscendC::DataCopyPad(xLocal[(2 * r + 1) * t.inPitch], xGm[row1 + this->srcCol], copyParams, padParams);
        }
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void ToFloat(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<T>& src)
    {
        if constexpr (std::is_same_v<T, float>) {
            AscendC::Muls(dst, src, 1.0f, this->srcLen);
        } else {
            AscendC::Cast(dst, src, AscendC::RoundMode::CAST_NONE, this->srcLen);
        }
    }
    __aicore__ inline void Compute(uint32_t r0, uint32_t rows)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        AscendC::LocalTensor<float> row0F = row0Buf.Get<float>();
        AscendC::LocalTensor<float> row1F = row1Buf.Get<float>();
        AscendC::LocalTensor<float> blend = blendBuf.Get<float>();
        AscendC::LocalTensor<float> left = leftBuf.Get<float>();
        AscendC::LocalTensor<float> right = rightBuf.Get<float>();
        AscendC::LocalTensor<uint32_t> off0 = offset0Buf.Get<uint32_t>();
        AscendC::LocalTensor<uint32_t> off1 = offset1Buf.Get<uint32_t>();
        AscendC::LocalTensor<float> w0 = weight0Buf.Get<float>();
        AscendC::LocalTensor<float> w1 = weight1Buf.Get<float>();
        for (uint32_t r = 0; r < rows; r++) {
            uint64_t row0 = 0;
            uint64_t row1 = 0;
            float lambda1 = 0.0f;
            SourceRows(this->rowOffset + r0 + r, row0, row1, lambda1);
            ToFloat(row0F, xLocal[2 * r * t.inPitch]);
            ToFloat(row1F, xLocal[(2 * r + 1) * t.inPitch]);
            uint32_t n = this->chunkW;
            AscendC::Muls(blend, row0F, 1.0f - lambda1, this->srcLen);
            AscendC::Axpy(blend, row1F, lambda1, this->srcLen);
            AscendC::Gather(left, blend, off0, 0, n);
            AscendC::Gather(right, blend, off1, 0, n);
            AscendC::Mul(left, left, w0, n);
            AscendC::Mul(right, right, w1, n);
            if constexpr (std::is_same_v<T, float>) {
                AscendC::Add(yLocal[r * t.outPitch], left, right, n);
            } else {
                AscendC::Add(left, left, right, n);
                AscendC::Cast(yLocal[r * t.outPitch], left, AscendC::RoundMode::CAST_RINT, n);
            }
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
    AscendC::TBuf<AscendC::QuePosition::VECCALC> offset0Buf, offset1Buf, weight0Buf, weight1Buf, leftBuf, rightBuf;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> row0Buf, row1Buf, blendBuf;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> floatInBuf, coordBuf, indexBuf;  // plane mode
    AscendC::GlobalTensor<T> xGm, yGm;
    TilingT t;
    uint32_t blockRows = 0;
    uint32_t rowOffset = 0;
    uint32_t tileRows = 0;  // plane mode: output rows a tile holds
    uint32_t chunkCol = 0;  // first output column of the current chunk
    uint32_t chunkW = 0;    // its output columns
    uint32_t srcCol = 0;    // first input column it reads
    uint32_t srcLen = 0;    // input columns it reads
};

extern "C" __global__ __aicore__ void upsample_bilinear_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                               GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelUpsampleBilinear<DTYPE_X, decltype(tilingData)> op;
    op.Init(x, y, tilingData);
    op.Process();
}
