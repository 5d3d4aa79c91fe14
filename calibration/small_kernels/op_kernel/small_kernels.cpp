// Small full-chip calibration kernels, written as a production elementwise operator is: every
// vector core takes a contiguous share, streams it through UB in the longest tiles the tiling
// allows, double-buffered, in one pass (CopyIn on MTE2, Compute on V, CopyOut on MTE3 overlap).
// The formula comes from the tiling: sigmoid and gelu read x only, maximum reads x and y.
// 16-bit data is computed in float and rounded back, except maximum of half.
#include <type_traits>
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t SIGMOID = 0, GELU = 1, MAXIMUM = 2;

template <typename T>
class KernelSmall {
    static constexpr bool WIDE = std::is_same_v<T, float>;

public:
    __aicore__ inline KernelSmall() {}
    template <typename Tiling>
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const Tiling& t)
    {
        uint32_t blockIdx = AscendC::GetBlockIdx();
        uint64_t offset = 0;
        if (blockIdx < t.formerNum) {
            blockLength = t.formerLength;
            offset = static_cast<uint64_t>(t.formerLength) * blockIdx;
        } else {
            blockLength = t.tailLength;
            offset = static_cast<uint64_t>(t.formerLength) * t.formerNum +
                     static_cast<uint64_t>(t.tailLength) * (blockIdx - t.formerNum);
        }
        if (offset + blockLength > t.totalLength) {
            blockLength = t.totalLength - offset;  // the last share ends with the tensor
        }
        formula = t.formula;
        tileLength = t.tileLength;
        tileNum = (blockLength + tileLength - 1) / tileLength;
        lastTileLength = blockLength - (tileNum - 1) * tileLength;
        xGm.SetGlobalBuffer((__gm__ T*)x + offset, blockLength);
        yGm.SetGlobalBuffer((__gm__ T*)y + offset, blockLength);
        zGm.SetGlobalBuffer((__gm__ T*)z + offset, blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(T));
        if (formula == MAXIMUM) {
            pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(T));
        }
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(T));
        uint32_t floatTiles = FloatTiles();
        if (floatTiles > 0) {
            pipe.InitBuffer(calcBuf, floatTiles * tileLength * sizeof(float));
        }
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < tileNum; i++) {
            CopyIn(i);
            Compute(i);
            CopyOut(i);
        }
    }

private:
    __aicore__ inline uint32_t FloatTiles() const
    {
        if (formula == SIGMOID) return WIDE ? 0 : 2;
        if (formula == GELU) return WIDE ? 1 : 3;
        return std::is_same_v<T, bfloat16_t> ? 2 : 0;
    }
    __aicore__ inline uint32_t TileElems(uint32_t progress) const
    {
        return progress == tileNum - 1 ? lastTileLength : tileLength;
    }
    __aicore__ inline void Load(AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM>& que,
                                AscendC::GlobalTensor<T>& gm, uint64_t offset, uint32_t len)
    {
        AscendC::LocalTensor<T> local = que.AllocTensor<T>();
        if (len == tileLength) {
            AscendC::DataCopy(local, gm[offset], len);
        } else {
            // The last tile may end inside a 32 B block: DataCopyPad moves exact bytes.
            AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<T> pad{false, 0, 0, 0};
            AscendC::DataCopyPad(local, gm[offset], params, pad);
        }
        que.EnQue(local);
    }
    __aicore__ inline void CopyIn(uint32_t progress)
    {
        uint64_t offset = static_cast<uint64_t>(progress) * tileLength;
        Load(inQueueX, xGm, offset, TileElems(progress));
        if (formula == MAXIMUM) {
            Load(inQueueY, yGm, offset, TileElems(progress));
        }
    }
    // z = f(x) in float (xf may be the input tile itself for float data).
    __aicore__ inline void Unary(const AscendC::LocalTensor<float>& zf, const AscendC::LocalTensor<float>& xf,
                                 const AscendC::LocalTensor<float>& work, uint32_t len)
    {
        if (formula == SIGMOID) {
            AscendC::Muls(zf, xf, -1.0f, len);
            AscendC::Exp(zf, zf, len);
            AscendC::Adds(zf, zf, 1.0f, len);
            AscendC::Reciprocal(zf, zf, len);
            return;
        }
        // gelu, tanh form: x / (1 + exp(-2 sqrt(2/pi) (x + 0.044715 x^3)))
        AscendC::Mul(work, xf, xf, len);
        AscendC::Mul(work, work, xf, len);
        AscendC::Muls(work, work, 0.044715f, len);
        AscendC::Add(work, work, xf, len);
        AscendC::Muls(work, work, -1.5957691216057308f, len);
        AscendC::Exp(work, work, len);
        AscendC::Adds(work, work, 1.0f, len);
        AscendC::Div(zf, xf, work, len);
    }
    __aicore__ inline void Compute(uint32_t progress)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<T> zLocal = outQueueZ.AllocTensor<T>();
        uint32_t len = TileElems(progress);
        if (formula == MAXIMUM) {
            AscendC::LocalTensor<T> yLocal = inQueueY.DeQue<T>();
            if constexpr (std::is_same_v<T, bfloat16_t>) {
                AscendC::LocalTensor<float> xf = calcBuf.Get<float>();
                AscendC::LocalTensor<float> yf = xf[tileLength];
                AscendC::Cast(xf, xLocal, AscendC::RoundMode::CAST_NONE, len);
                AscendC::Cast(yf, yLocal, AscendC::RoundMode::CAST_NONE, len);
                AscendC::Max(yf, xf, yf, len);
                AscendC::Cast(zLocal, yf, AscendC::RoundMode::CAST_RINT, len);
            } else {
                AscendC::Max(zLocal, xLocal, yLocal, len);
            }
            inQueueY.FreeTensor(yLocal);
        } else if constexpr (WIDE) {
            AscendC::LocalTensor<float> work;
            if (formula == GELU) {
                work = calcBuf.Get<float>();
            }
            Unary(zLocal, xLocal, work, len);
        } else {
            AscendC::LocalTensor<float> xf = calcBuf.Get<float>();
            AscendC::LocalTensor<float> zf = xf[tileLength];
            AscendC::Cast(xf, xLocal, AscendC::RoundMode::CAST_NONE, len);
            Unary(zf, xf, xf[2 * tileLength], len);
            AscendC::Cast(zLocal, zf, AscendC::RoundMode::CAST_RINT, len);
        }
        outQueueZ.EnQue<T>(zLocal);
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t progress)
    {
        AscendC::LocalTensor<T> zLocal = outQueueZ.DeQue<T>();
        uint32_t len = TileElems(progress);
        uint64_t offset = static_cast<uint64_t>(progress) * tileLength;
        if (len == tileLength) {
            AscendC::DataCopy(zGm[offset], zLocal, len);
        } else {
            AscendC::DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPad(zGm[offset], zLocal, params);
        }
        outQueueZ.FreeTensor(zLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> calcBuf;
    AscendC::GlobalTensor<T> xGm, yGm, zGm;
    uint32_t formula = SIGMOID;
    uint32_t blockLength = 0;
    uint32_t tileLength = 0;
    uint32_t tileNum = 0;
    uint32_t lastTileLength = 0;
};

extern "C" __global__ __aicore__ void small_kernels(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelSmall<DTYPE_X> op;
    op.Init(x, y, z, tilingData);
    op.Process();
}
