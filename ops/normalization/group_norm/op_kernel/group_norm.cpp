// Kernel of GroupNormCustom: for each sample n and group g of C/G channels,
// y = (x - mean) / sqrt(var + eps) * gamma[c] + beta[c], mean and (biased) variance over
// the group's C/G * HW values. Each core owns a range of (n, g) groups. A group is C/G
// rows of HW values; tiles of whole rows (32 B row pitch, DataCopyPad) or, for very long
// rows, row chunks stream through UB with double buffering. A group that fits in one tile
// is loaded once; larger groups are read three times (sum, centred squares, output).
// Statistics use per-row ReduceSum over the valid length, accumulated in float on the
// vector unit; the variance is computed around the mean (two-pass) for accuracy.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t BLOCK_FLOATS = 8;

template <typename T>
class KernelGroupNorm {
    static constexpr bool IS_FLOAT = std::is_same_v<T, float>;
    static constexpr uint32_t ALIGN_NUM = 32 / sizeof(T);
    enum Pass : uint32_t { SUM = 0, SQUARES = 1, OUTPUT = 2 };

public:
    __aicore__ inline KernelGroupNorm() {}
    template <typename Tiling>
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, const Tiling& t)
    {
        uint32_t blockIdx = AscendC::GetBlockIdx();
        if (blockIdx < t.formerNum) {
            groupCount = t.formerGroups;
            firstGroup = t.formerGroups * blockIdx;
        } else {
            groupCount = t.tailGroups;
            firstGroup = t.formerGroups * t.formerNum + t.tailGroups * (blockIdx - t.formerNum);
        }
        rowLen = t.rowLen;
        channelsPerGroup = t.channelsPerGroup;
        numGroups = t.numGroups;
        chunkLen = t.chunkLen;
        chunkPitch = t.chunkPitch;
        chunkNum = (rowLen + chunkLen - 1) / chunkLen;
        rowsPerTile = t.rowsPerTile;
        rowTiles = (channelsPerGroup + rowsPerTile - 1) / rowsPerTile;
        invGroupSize = t.invGroupSize;
        epsilon = t.epsilon;

        xGm.SetGlobalBuffer((__gm__ T*)x);
        yGm.SetGlobalBuffer((__gm__ T*)y);
        gammaGm.SetGlobalBuffer((__gm__ T*)gamma);
        betaGm.SetGlobalBuffer((__gm__ T*)beta);
        uint32_t tileElems = rowsPerTile * chunkPitch;
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileElems * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileElems * sizeof(T));
        pipe.InitBuffer(tmpBuf, tileElems * sizeof(float));
        if constexpr (!IS_FLOAT) {
            pipe.InitBuffer(castBuf, tileElems * sizeof(float));
        }
        // ReduceSum's first pass leaves one float per 64-element repeat of a row.
        uint32_t workFloats = ((chunkPitch + 63) / 64 + BLOCK_FLOATS - 1) / BLOCK_FLOATS * BLOCK_FLOATS;
        pipe.InitBuffer(workBuf, workFloats * sizeof(float));
        pipe.InitBuffer(resultBuf, BLOCK_FLOATS * sizeof(float));
        pipe.InitBuffer(accBuf, BLOCK_FLOATS * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        bool resident = rowTiles == 1 && chunkNum == 1;
        for (uint32_t i = 0; i < groupCount; i++) {
            uint64_t group = firstGroup + i;
            uint64_t firstRow = group * channelsPerGroup;
            uint32_t firstChannel = static_cast<uint32_t>(group % numGroups) * channelsPerGroup;
            if (resident) {
                NormalizeResident(firstRow, firstChannel);
            } else {
                NormalizeStreamed(firstRow, firstChannel);
            }
        }
    }

private:
    __aicore__ inline static uint32_t AlignUp(uint32_t n) { return (n + ALIGN_NUM - 1) / ALIGN_NUM * ALIGN_NUM; }
    // The whole group is one tile: load it once, run the three passes in UB.
    __aicore__ inline void NormalizeResident(uint64_t firstRow, uint32_t firstChannel)
    {
        CopyIn(firstRow * rowLen, channelsPerGroup, rowLen);
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<float> xf = AsFloat(xLocal, channelsPerGroup);
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        AscendC::Duplicate(acc, 0.0f, BLOCK_FLOATS);
        AddRowSums(xf, channelsPerGroup, rowLen, acc);
        float mean = ReadScaled(acc, invGroupSize, 0.0f, false);
        AscendC::Duplicate(acc, 0.0f, BLOCK_FLOATS);
        AddCenteredSquares(xf, channelsPerGroup, rowLen, mean, acc);
        float rstd = ReadScaled(acc, invGroupSize, epsilon, true);
        WriteNormalized(xf, channelsPerGroup, rowLen, mean, rstd, firstChannel);
        inQueueX.FreeTensor(xLocal);
        CopyOut(firstRow * rowLen, channelsPerGroup, rowLen);
    }
    // The group spans several tiles: stream it once per pass.
    __aicore__ inline void NormalizeStreamed(uint64_t firstRow, uint32_t firstChannel)
    {
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        float mean = 0.0f;
        float rstd = 0.0f;
        for (uint32_t pass = SUM; pass <= OUTPUT; pass++) {
            if (pass != OUTPUT) {
                AscendC::Duplicate(acc, 0.0f, BLOCK_FLOATS);
            }
            for (uint32_t rt = 0; rt < rowTiles; rt++) {
                uint32_t rows = rt == rowTiles - 1 ? channelsPerGroup - rt * rowsPerTile : rowsPerTile;
                uint64_t row = firstRow + static_cast<uint64_t>(rt) * rowsPerTile;
                for (uint32_t c = 0; c < chunkNum; c++) {
                    uint32_t col = c * chunkLen;
                    uint32_t len = rowLen - col < chunkLen ? rowLen - col : chunkLen;
                    uint64_t offset = row * rowLen + col;
                    CopyIn(offset, rows, len);
                    AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
                    AscendC::LocalTensor<float> xf = AsFloat(xLocal, rows);
                    if (pass == SUM) {
                        AddRowSums(xf, rows, len, acc);
                    } else if (pass == SQUARES) {
                        AddCenteredSquares(xf, rows, len, mean, acc);
                    } else {
                        WriteNormalized(xf, rows, len, mean, rstd, firstChannel + rt * rowsPerTile);
                    }
                    inQueueX.FreeTensor(xLocal);
                    if (pass == OUTPUT) {
                        CopyOut(offset, rows, len);
                    }
                }
            }
            if (pass == SUM) {
                mean = ReadScaled(acc, invGroupSize, 0.0f, false);
            } else if (pass == SQUARES) {
                rstd = ReadScaled(acc, invGroupSize, epsilon, true);
            }
        }
    }
    // `rows` rows of `len` elements, rowLen apart in GM, chunkPitch apart in UB.
    __aicore__ inline void CopyIn(uint64_t offset, uint32_t rows, uint32_t len)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(len * sizeof(T)),
                                              static_cast<uint32_t>((rowLen - len) * sizeof(T)),
                                              (chunkPitch - AlignUp(len)) / ALIGN_NUM, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void CopyOut(uint64_t offset, uint32_t rows, uint32_t len)
    {
        AscendC::LocalTensor<T> yLocal = outQueueY.DeQue<T>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(len * sizeof(T)),
                                              (chunkPitch - AlignUp(len)) / ALIGN_NUM,
                                              static_cast<uint32_t>((rowLen - len) * sizeof(T)), 0};
        AscendC::DataCopyPad(yGm[offset], yLocal, copyParams);
        outQueueY.FreeTensor(yLocal);
    }
    // The tile in float: the input itself for float, a cast copy for 16-bit dtypes.
    __aicore__ inline AscendC::LocalTensor<float> AsFloat(const AscendC::LocalTensor<T>& xLocal, uint32_t rows)
    {
        if constexpr (IS_FLOAT) {
            return xLocal;
        } else {
            AscendC::LocalTensor<float> xf = castBuf.Get<float>();
            AscendC::Cast(xf, xLocal, AscendC::RoundMode::CAST_NONE, rows * chunkPitch);
            return xf;
        }
    }
    // acc[0] += sum of the valid `len` elements of each row (padding excluded).
    __aicore__ inline void AddRowSums(const AscendC::LocalTensor<float>& src, uint32_t rows, uint32_t len,
                                      const AscendC::LocalTensor<float>& acc)
    {
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::LocalTensor<float> result = resultBuf.Get<float>();
        for (uint32_t r = 0; r < rows; r++) {
            AscendC::ReduceSum(result, src[r * chunkPitch], work, len);
            AscendC::Add(acc, acc, result, 1);
        }
    }
    __aicore__ inline void AddCenteredSquares(const AscendC::LocalTensor<float>& xf, uint32_t rows, uint32_t len,
                                              float mean, const AscendC::LocalTensor<float>& acc)
    {
        AscendC::LocalTensor<float> tmp = tmpBuf.Get<float>();
        AscendC::Adds(tmp, xf, -mean, rows * chunkPitch);
        AscendC::Mul(tmp, tmp, tmp, rows * chunkPitch);
        AddRowSums(tmp, rows, len, acc);
    }
    // acc[0] * scale (+ eps and 1/sqrt when `rsqrt`), read back by the scalar unit.
    __aicore__ inline float ReadScaled(const AscendC::LocalTensor<float>& acc, float scale, float eps, bool rsqrt)
    {
        AscendC::LocalTensor<float> result = resultBuf.Get<float>();
        AscendC::Muls(result, acc, scale, 1);
        if (rsqrt) {
            AscendC::Adds(result, result, eps, 1);
            AscendC::Rsqrt(result, result, 1);
        }
        event_t eventId = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(eventId);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(eventId);
        return result.GetValue(0);
    }
    // y row r = (x - mean) * (rstd * gamma[c]) + beta[c], c = firstChannel + r.
    __aicore__ inline void WriteNormalized(const AscendC::LocalTensor<float>& xf, uint32_t rows, uint32_t len,
                                           float mean, float rstd, uint32_t firstChannel)
    {
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        AscendC::LocalTensor<float> yf;
        if constexpr (IS_FLOAT) {
            yf = yLocal;
        } else {
            yf = tmpBuf.Get<float>();
        }
        AscendC::Adds(yf, xf, -mean, rows * chunkPitch);
        for (uint32_t r = 0; r < rows; r++) {
            float g = static_cast<float>(gammaGm.GetValue(firstChannel + r));
            float b = static_cast<float>(betaGm.GetValue(firstChannel + r));
            AscendC::Muls(yf[r * chunkPitch], yf[r * chunkPitch], rstd * g, len);
            AscendC::Adds(yf[r * chunkPitch], yf[r * chunkPitch], b, len);
        }
        if constexpr (!IS_FLOAT) {
            AscendC::Cast(yLocal, yf, AscendC::RoundMode::CAST_RINT, rows * chunkPitch);
        }
        outQueueY.EnQue<T>(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> tmpBuf, castBuf, workBuf, resultBuf, accBuf;
    AscendC::GlobalTensor<T> xGm, yGm, gammaGm, betaGm;
    uint32_t groupCount = 0;
    uint32_t firstGroup = 0;
    uint32_t rowLen = 0;
    uint32_t channelsPerGroup = 0;
    uint32_t numGroups = 1;
    uint32_t chunkLen = 0;
    uint32_t chunkPitch = 0;
    uint32_t chunkNum = 0;
    uint32_t rowsPerTile = 0;
    uint32_t rowTiles = 0;
    float invGroupSize = 0.0f;
    float epsilon = 0.0f;
};

extern "C" __global__ __aicore__ void group_norm_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                        GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelGroupNorm<DTYPE_X> op;
    op.Init(x, gamma, beta, y, tilingData);
    op.Process();
}
