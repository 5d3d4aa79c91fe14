// Kernel of RotaryEmbeddingCustom: y = x*cos + rotate_half(x)*sin per head, cos and sin
// per token. Each core takes a contiguous run of units (a token's chunk of heads); a tile
// is several whole tokens, or one chunk when a token's heads do not fit in one tile. Every
// half row of every head sits on a 32 B boundary in UB: a plain DataCopy when half rows are
// whole blocks, DataCopyPad otherwise. The rotation is six strided vector instructions per
// token and 64 float columns, one repeat per head, cos and sin read with repeat stride 0
// (shared by the token's heads). Queues are double-buffered; fp16/bf16 compute in float.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t FLOATS_PER_REPEAT = 64;  // 256 B of float per vector repeat
constexpr uint32_t FLOATS_PER_BLOCK = 8;

template <typename T>
class KernelRotaryEmbedding {
    static constexpr bool COMPUTE_IN_FLOAT = !std::is_same_v<T, float>;

public:
    __aicore__ inline KernelRotaryEmbedding() {}
    template <typename Tiling>
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR cosIn, GM_ADDR sinIn, GM_ADDR y, const Tiling& tiling)
    {
        uint32_t blockIdx = AscendC::GetBlockIdx();
        if (blockIdx < tiling.formerNum) {
            unitCount = tiling.formerUnits;
            unitStart = tiling.formerUnits * blockIdx;
        } else {
            unitCount = tiling.tailUnits;
            unitStart = tiling.formerUnits * tiling.formerNum + tiling.tailUnits * (blockIdx - tiling.formerNum);
        }
        heads = tiling.heads;
        headDim = tiling.headDim;
        half = headDim / 2;
        halfAligned = tiling.halfAligned;
        rowPitch = 2 * halfAligned;
        aligned = halfAligned == half;
        headsPerTile = tiling.headsPerTile;
        chunksPerToken = tiling.chunksPerToken;
        tokensPerTile = tiling.tokensPerTile;
        uint32_t tileHeads = chunksPerToken == 1 ? tokensPerTile * heads : headsPerTile;

        xGm.SetGlobalBuffer((__gm__ T*)x);
        yGm.SetGlobalBuffer((__gm__ T*)y);
        cosGm.SetGlobalBuffer((__gm__ T*)cosIn);
        sinGm.SetGlobalBuffer((__gm__ T*)sinIn);
        pipe.InitBuffer(inQueueX, tiling.bufferNum, tileHeads * rowPitch * sizeof(T));
        pipe.InitBuffer(outQueueY, tiling.bufferNum, tileHeads * rowPitch * sizeof(T));
        pipe.InitBuffer(inQueueCosSin, tiling.bufferNum, 2 * tokensPerTile * rowPitch * sizeof(T));
        pipe.InitBuffer(cosSinFloatBuf, 2 * tokensPerTile * rowPitch * sizeof(float));
        pipe.InitBuffer(tmpBuf, tileHeads * rowPitch * sizeof(float));
        if constexpr (COMPUTE_IN_FLOAT) {
            pipe.InitBuffer(xFloatBuf, tileHeads * rowPitch * sizeof(float));
        }
    }
    __aicore__ inline void Process()
    {
        uint32_t loadedToken = 0xFFFFFFFFu;
        if (chunksPerToken == 1) {
            // Units are tokens: tiles of tokensPerTile whole tokens.
            for (uint32_t done = 0; done < unitCount; done += tokensPerTile) {
                uint32_t tokens = unitCount - done < tokensPerTile ? unitCount - done : tokensPerTile;
                uint32_t token = unitStart + done;
                CopyInCosSin(token, tokens);
                ComputeCosSin(tokens);
                uint64_t offset = static_cast<uint64_t>(token) * heads * headDim;
                CopyIn(offset, tokens * heads);
                Compute(tokens, heads);
                CopyOut(offset, tokens * heads);
            }
            return;
        }
        for (uint32_t i = 0; i < unitCount; i++) {
            uint32_t unit = unitStart + i;
            uint32_t token = unit / chunksPerToken;
            uint32_t headStart = (unit % chunksPerToken) * headsPerTile;
            uint32_t count = heads - headStart < headsPerTile ? heads - headStart : headsPerTile;
            if (token != loadedToken) {
                CopyInCosSin(token, 1);
                ComputeCosSin(1);
                loadedToken = token;
            }
            uint64_t offset = (static_cast<uint64_t>(token) * heads + headStart) * headDim;
            CopyIn(offset, count);
            Compute(1, count);
            CopyOut(offset, count);
        }
    }

private:
    // `rows` half rows of GM starting at `src` into UB at a pitch of halfAligned.
    __aicore__ inline void LoadHalfRows(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                                        uint32_t rows)
    {
        if (aligned) {
            AscendC::DataCopy(dst, src, rows * half);
        } else {
            AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(half * sizeof(T)),
                                                  0, 0, 0};
            AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
            AscendC::DataCopyPad(dst, src, copyParams, padParams);
        }
    }
    // cos of the tile's tokens at [0, tokensPerTile * rowPitch), sin after it.
    __aicore__ inline void CopyInCosSin(uint32_t token, uint32_t tokens)
    {
        AscendC::LocalTensor<T> cs = inQueueCosSin.AllocTensor<T>();
        uint64_t offset = static_cast<uint64_t>(token) * headDim;
        LoadHalfRows(cs, cosGm[offset], 2 * tokens);
        LoadHalfRows(cs[tokensPerTile * rowPitch], sinGm[offset], 2 * tokens);
        inQueueCosSin.EnQue(cs);
    }
    __aicore__ inline void ComputeCosSin(uint32_t tokens)
    {
        AscendC::LocalTensor<T> cs = inQueueCosSin.DeQue<T>();
        AscendC::LocalTensor<float> csFloat = cosSinFloatBuf.Get<float>();
        uint32_t sinOffset = tokensPerTile * rowPitch;
        if constexpr (COMPUTE_IN_FLOAT) {
            AscendC::Cast(csFloat, cs, AscendC::RoundMode::CAST_NONE, tokens * rowPitch);
            AscendC::Cast(csFloat[sinOffset], cs[sinOffset], AscendC::RoundMode::CAST_NONE, tokens * rowPitch);
        } else {
            AscendC::Adds(csFloat, cs, 0.0f, tokens * rowPitch);
            AscendC::Adds(csFloat[sinOffset], cs[sinOffset], 0.0f, tokens * rowPitch);
        }
        inQueueCosSin.FreeTensor(cs);
    }
    __aicore__ inline void CopyIn(uint64_t offset, uint32_t count)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        LoadHalfRows(xLocal, xGm[offset], 2 * count);
        inQueueX.EnQue(xLocal);
    }
    // y = rotary(x) for `count` heads of one token laid out at rowPitch; y may be x.
    __aicore__ inline void Rotate(const AscendC::LocalTensor<float>& yF, const AscendC::LocalTensor<float>& xF,
                                  const AscendC::LocalTensor<float>& tmp, const AscendC::LocalTensor<float>& cosF,
                                  const AscendC::LocalTensor<float>& sinF, uint32_t count)
    {
        uint8_t rowStride = static_cast<uint8_t>(rowPitch / FLOATS_PER_BLOCK);
        AscendC::BinaryRepeatParams withTable(1, 1, 1, rowStride, rowStride, 0);  // src1: the token's row
        AscendC::BinaryRepeatParams rowwise(1, 1, 1, rowStride, rowStride, rowStride);
        uint8_t repeat = static_cast<uint8_t>(count);
        uint32_t h2 = halfAligned;
        for (uint32_t off = 0; off < half; off += FLOATS_PER_REPEAT) {
            uint64_t mask = half - off < FLOATS_PER_REPEAT ? half - off : FLOATS_PER_REPEAT;
            AscendC::Mul(tmp[off], xF[h2 + off], sinF[off], mask, repeat, withTable);       // x2*sin1
            AscendC::Mul(tmp[h2 + off], xF[off], sinF[h2 + off], mask, repeat, withTable);  // x1*sin2
            AscendC::Mul(yF[off], xF[off], cosF[off], mask, repeat, withTable);             // x1*cos1
            AscendC::Mul(yF[h2 + off], xF[h2 + off], cosF[h2 + off], mask, repeat, withTable);
            AscendC::Sub(yF[off], yF[off], tmp[off], mask, repeat, rowwise);
            AscendC::Add(yF[h2 + off], yF[h2 + off], tmp[h2 + off], mask, repeat, rowwise);
        }
    }
    __aicore__ inline void RotateTile(const AscendC::LocalTensor<float>& yF, const AscendC::LocalTensor<float>& xF,
                                      uint32_t tokens, uint32_t count)
    {
        AscendC::LocalTensor<float> tmp = tmpBuf.Get<float>();
        AscendC::LocalTensor<float> cosF = cosSinFloatBuf.Get<float>();
        AscendC::LocalTensor<float> sinF = cosF[tokensPerTile * rowPitch];
        for (uint32_t t = 0; t < tokens; t++) {
            uint32_t rows = t * count * rowPitch;
            Rotate(yF[rows], xF[rows], tmp[rows], cosF[t * rowPitch], sinF[t * rowPitch], count);
        }
    }
    __aicore__ inline void Compute(uint32_t tokens, uint32_t count)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        uint32_t len = tokens * count * rowPitch;
        if constexpr (COMPUTE_IN_FLOAT) {
            AscendC::LocalTensor<float> xFloat = xFloatBuf.Get<float>();
            AscendC::Cast(xFloat, xLocal, AscendC::RoundMode::CAST_NONE, len);
            RotateTile(xFloat, xFloat, tokens, count);
            AscendC::Cast(yLocal, xFloat, AscendC::RoundMode::CAST_RINT, len);
        } else {
            RotateTile(yLocal, xLocal, tokens, count);
        }
        outQueueY.EnQue<T>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint64_t offset, uint32_t count)
    {
        AscendC::LocalTensor<T> yLocal = outQueueY.DeQue<T>();
        if (aligned) {
            AscendC::DataCopy(yGm[offset], yLocal, count * headDim);
        } else {
            AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(2 * count),
                                                  static_cast<uint32_t>(half * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[offset], yLocal, copyParams);
        }
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueCosSin;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> cosSinFloatBuf, tmpBuf, xFloatBuf;
    AscendC::GlobalTensor<T> xGm, yGm, cosGm, sinGm;
    uint32_t unitStart = 0;
    uint32_t unitCount = 0;
    uint32_t heads = 0;
    uint32_t headDim = 0;
    uint32_t half = 0;
    uint32_t halfAligned = 0;
    uint32_t rowPitch = 0;
    bool aligned = false;
    uint32_t headsPerTile = 0;
    uint32_t chunksPerToken = 0;
    uint32_t tokensPerTile = 0;
};

extern "C" __global__ __aicore__ void rotary_embedding_custom(GM_ADDR x, GM_ADDR cosIn, GM_ADDR sinIn, GM_ADDR y,
                                                              GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelRotaryEmbedding<DTYPE_X> op;
    op.Init(x, cosIn, sinIn, y, tilingData);
    op.Process();
}
