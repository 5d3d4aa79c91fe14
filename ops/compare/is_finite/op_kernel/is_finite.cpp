// Kernel of IsFiniteCustom: y = isfinite(x) as bool. Each core takes a contiguous slice
// of the flattened tensor and streams it through UB in tiles with double buffering
// (CopyIn on MTE2, Compute on V and CopyOut on MTE3 overlap across tiles).
// Compute: |x| <= largest finite value is true exactly for finite x (inf is larger, and
// every comparison with NaN is false), so Abs + Compares give the bit mask; Select turns
// it into half 1/0 and Cast narrows that to the uint8 bytes of a bool tensor.
// bfloat16 is widened to float first (exact, inf and NaN preserved; no bf16 arithmetic).
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t UNIT = 256;  // elements: see the tiling function

template <typename T>
class KernelIsFinite {
    static constexpr bool COMPUTE_IN_FLOAT = std::is_same_v<T, bfloat16_t>;
    using C = std::conditional_t<COMPUTE_IN_FLOAT, float, T>;  // the type Abs/Compares see

public:
    __aicore__ inline KernelIsFinite() {}
    template <typename Tiling>
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const Tiling& tiling)
    {
        uint32_t blockIdx = AscendC::GetBlockIdx();
        uint64_t offset = 0;
        if (blockIdx < tiling.formerNum) {
            blockLength = tiling.formerLength;
            offset = static_cast<uint64_t>(tiling.formerLength) * blockIdx;
        } else {
            blockLength = tiling.tailLength;
            offset = static_cast<uint64_t>(tiling.formerLength) * tiling.formerNum +
                     static_cast<uint64_t>(tiling.tailLength) * (blockIdx - tiling.formerNum);
        }
        // Shares are whole units; the last core stops at the end of the tensor.
        if (offset + blockLength > tiling.totalLength) {
            blockLength = tiling.totalLength - offset;
        }
        tileLength = tiling.tileLength;
        tileNum = (blockLength + tileLength - 1) / tileLength;
        lastTileLength = blockLength - (tileNum - 1) * tileLength;

        xGm.SetGlobalBuffer((__gm__ T*)x + offset, blockLength);
        yGm.SetGlobalBuffer((__gm__ uint8_t*)y + offset, blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(uint8_t));
        pipe.InitBuffer(maskBuf, tileLength / 8);
        pipe.InitBuffer(selBuf, tileLength * sizeof(half));
        pipe.InitBuffer(onesBuf, tileLength * sizeof(half));
        if constexpr (COMPUTE_IN_FLOAT) {
            pipe.InitBuffer(xFloatBuf, tileLength * sizeof(float));
        }
        // The "true" operand of every Select, filled once for all tiles.
        AscendC::Duplicate(onesBuf.Get<half>(), static_cast<half>(1.0f), tileLength);
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
    __aicore__ inline uint32_t TileElems(uint32_t progress) const
    {
        return progress == tileNum - 1 ? lastTileLength : tileLength;
    }
    __aicore__ inline void CopyIn(uint32_t progress)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        uint32_t len = TileElems(progress);
        uint64_t offset = static_cast<uint64_t>(progress) * tileLength;
        if (len == tileLength) {
            AscendC::DataCopy(xLocal, xGm[offset], len);
        } else {
            // The last tile may end inside a 32 B block: DataCopyPad moves exact bytes.
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
            AscendC::DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
        }
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void Compute(uint32_t progress)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<uint8_t> yLocal = outQueueY.AllocTensor<uint8_t>();
        AscendC::LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();
        AscendC::LocalTensor<half> sel = selBuf.Get<half>();
        // Whole units: Compares ignores a partial 256 B repeat. Lanes past the tile's data
        // test leftover UB bytes; their results are never copied out.
        uint32_t len = (TileElems(progress) + UNIT - 1) / UNIT * UNIT;
        AscendC::LocalTensor<C> absX;
        if constexpr (COMPUTE_IN_FLOAT) {
            absX = xFloatBuf.Get<float>();
            AscendC::Cast(absX, xLocal, AscendC::RoundMode::CAST_NONE, len);
            AscendC::Abs(absX, absX, len);
        } else {
            absX = xLocal;
            AscendC::Abs(absX, xLocal, len);  // in place: the raw input is not needed again
        }
        AscendC::Compares(mask, absX, MaxFinite(), AscendC::CMPMODE::LE, len);
        AscendC::Select(sel, mask, onesBuf.Get<half>(), static_cast<half>(0.0f),
                        AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, len);
        AscendC::Cast(yLocal, sel, AscendC::RoundMode::CAST_NONE, len);
        outQueueY.EnQue<uint8_t>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t progress)
    {
        AscendC::LocalTensor<uint8_t> yLocal = outQueueY.DeQue<uint8_t>();
        uint32_t len = TileElems(progress);
        uint64_t offset = static_cast<uint64_t>(progress) * tileLength;
        if (len == tileLength) {
            AscendC::DataCopy(yGm[offset], yLocal, len);
        } else {
            AscendC::DataCopyExtParams copyParams{1, len, 0, 0, 0};
            AscendC::DataCopyPad(yGm[offset], yLocal, copyParams);
        }
        outQueueY.FreeTensor(yLocal);
    }
    // Largest finite value of the compute type (bf16 values are compared as float, and
    // a finite bf16 never exceeds float's largest finite value).
    __aicore__ inline C MaxFinite() const
    {
        if constexpr (std::is_same_v<C, half>) {
            return static_cast<half>(65504.0f);
        } else {
            return static_cast<float>(3.40282346638528859812e+38);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> maskBuf, selBuf, onesBuf, xFloatBuf;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<uint8_t> yGm;
    uint32_t blockLength = 0;
    uint32_t tileLength = 0;
    uint32_t tileNum = 0;
    uint32_t lastTileLength = 0;
};

extern "C" __global__ __aicore__ void is_finite_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelIsFinite<DTYPE_X> op;
    op.Init(x, y, tilingData);
    op.Process();
}
