// Kernel of UpsampleBilinearCustom: PyTorch 'bilinear' on [N, C, H, W]. For an output
// pixel the source coordinate is src = dst * ratio (align_corners) or
// max((dst + 0.5) * ratio - 0.5, 0); i0 = floor(src), i1 = min(i0 + 1, size - 1),
// lambda = src - i0, all in float. Each core owns a range of output rows. Rows go in
// column chunks (one chunk, the whole row, unless the row does not fit in UB); per chunk
// the column offset and weight tables are built. Per output row the input columns of
// the chunk from the two source rows come into UB, are blended vertically in float, then
// the two column neighbours are gathered through the offset tables and blended with the
// per-column weights. The tile's output chunks leave with one strided copy.
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
    AscendC::GlobalTensor<T> xGm, yGm;
    TilingT t;
    uint32_t blockRows = 0;
    uint32_t rowOffset = 0;
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
