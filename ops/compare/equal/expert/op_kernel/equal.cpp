// Kernel of EqualCustom (expert): y = (x1 == x2) as bool. Each core takes a contiguous slice of
// the flattened tensors and streams it through UB in tiles with double buffering
// (CopyIn on MTE2, Compute on V and CopyOut on MTE3 overlap across tiles).
// Compute: Compare writes one bit per element; Select turns the bits into half 1/0 and
// Cast narrows those to the uint8 bytes a bool tensor holds. bfloat16 is compared in
// float (Compare has no bf16 form; the widening is exact); NaN compares unequal.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t UNIT = 256;  // elements: see the tiling function

template <typename T>
class KernelEqual {
    static constexpr bool COMPUTE_IN_FLOAT = std::is_same_v<T, bfloat16_t>;
    using C = std::conditional_t<COMPUTE_IN_FLOAT, float, T>;  // the type Compare sees

public:
    __aicore__ inline KernelEqual() {}
    template <typename Tiling>
    __aicore__ inline void Init(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, const Tiling& tiling)
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

        x1Gm.SetGlobalBuffer((__gm__ T*)x1 + offset, blockLength);
        // x1Gm is read exactly once: its lines need not displace the output in L2.
        x1Gm.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
        x2Gm.SetGlobalBuffer((__gm__ T*)x2 + offset, blockLength);
        // x2Gm is read exactly once: its lines need not displace the output in L2.
        x2Gm.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
        yGm.SetGlobalBuffer((__gm__ uint8_t*)y + offset, blockLength);
        pipe.InitBuffer(inQueueX1, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(inQueueX2, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(uint8_t));
        pipe.InitBuffer(maskBuf, tileLength / 8);
        pipe.InitBuffer(selBuf, tileLength * sizeof(half));
        pipe.InitBuffer(onesBuf, tileLength * sizeof(half));
        if constexpr (COMPUTE_IN_FLOAT) {
            pipe.InitBuffer(x1FloatBuf, tileLength * sizeof(float));
            pipe.InitBuffer(x2FloatBuf, tileLength * sizeof(float));
        }
        // The "true" operand of every Select, filled once for all tiles (hoisted out of the
        // tile loop: a per-tile fill would cost a vector pass per tile for a constant).
        AscendC::Duplicate(onesBuf.Get<half>(), static_cast<half>(1.0f), tileLength);
    }
    __aicore__ inline void Process()
    {
        // Two tiles per iteration, each stage issued for both: the second tile's copy-in is
        // queued on MTE2 before the first tile's compute waits for its data.
        for (uint32_t i = 0; i + 1 < tileNum; i += 2) {
            CopyIn(i);
            CopyIn(i + 1);
            Compute(i);
            Compute(i + 1);
            CopyOut(i);
            CopyOut(i + 1);
        }
        if (tileNum % 2 != 0) {
            CopyIn(tileNum - 1);
            Compute(tileNum - 1);
            CopyOut(tileNum - 1);
        }
    }

private:
    __aicore__ inline uint32_t TileElems(uint32_t progress) const
    {
        return progress == tileNum - 1 ? lastTileLength : tileLength;
    }
    __aicore__ inline void CopyIn(uint32_t progress)
    {
        AscendC::LocalTensor<T> x1Local = inQueueX1.AllocTensor<T>();
        AscendC::LocalTensor<T> x2Local = inQueueX2.AllocTensor<T>();
        uint32_t len = TileElems(progress);
        uint64_t offset = static_cast<uint64_t>(progress) * tileLength;
        if (len == tileLength) {
            AscendC::DataCopy(x1Local, x1Gm[offset], len);
            AscendC::DataCopy(x2Local, x2Gm[offset], len);
        } else {
            // The last tile may end inside a 32 B block: DataCopyPad moves exact bytes.
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
            AscendC::DataCopyPad(x1Local, x1Gm[offset], copyParams, padParams);
            AscendC::DataCopyPad(x2Local, x2Gm[offset], copyParams, padParams);
        }
        inQueueX1.EnQue(x1Local);
        inQueueX2.EnQue(x2Local);
    }
    __aicore__ inline void Compute(uint32_t progress)
    {
        AscendC::LocalTensor<T> x1Local = inQueueX1.DeQue<T>();
        AscendC::LocalTensor<T> x2Local = inQueueX2.DeQue<T>();
        AscendC::LocalTensor<uint8_t> yLocal = outQueueY.AllocTensor<uint8_t>();
        AscendC::LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();
        AscendC::LocalTensor<half> sel = selBuf.Get<half>();
        // Whole units: Compare ignores a partial 256 B repeat. Lanes past the tile's data
        // compare leftover UB bytes; their results are never copied out.
        uint32_t len = (TileElems(progress) + UNIT - 1) / UNIT * UNIT;
        if constexpr (COMPUTE_IN_FLOAT) {
            AscendC::LocalTensor<float> a = x1FloatBuf.Get<float>();
            AscendC::LocalTensor<float> b = x2FloatBuf.Get<float>();
            AscendC::Cast(a, x1Local, AscendC::RoundMode::CAST_NONE, len);
            AscendC::Cast(b, x2Local, AscendC::RoundMode::CAST_NONE, len);
            AscendC::Compare(mask, a, b, AscendC::CMPMODE::EQ, len);
        } else {
            AscendC::Compare(mask, x1Local, x2Local, AscendC::CMPMODE::EQ, len);
        }
        AscendC::Select(sel, mask, onesBuf.Get<half>(), static_cast<half>(0.0f),
                        AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, len);
        AscendC::Cast(yLocal, sel, AscendC::RoundMode::CAST_NONE, len);
        outQueueY.EnQue<uint8_t>(yLocal);
        inQueueX1.FreeTensor(x1Local);
        inQueueX2.FreeTensor(x2Local);
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

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX1, inQueueX2;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> maskBuf, selBuf, onesBuf, x1FloatBuf, x2FloatBuf;
    AscendC::GlobalTensor<T> x1Gm;
    AscendC::GlobalTensor<T> x2Gm;
    AscendC::GlobalTensor<uint8_t> yGm;
    uint32_t blockLength = 0;
    uint32_t tileLength = 0;
    uint32_t tileNum = 0;
    uint32_t lastTileLength = 0;
};

extern "C" __global__ __aicore__ void equal_custom(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelEqual<DTYPE_X1> op;
    op.Init(x1, x2, y, tilingData);
    op.Process();
}
