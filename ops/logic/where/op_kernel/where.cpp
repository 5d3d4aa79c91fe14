// Kernel of WhereCustom: y = condition ? x1 : x2, elementwise. Each core takes a
// contiguous slice of the flattened tensors and streams it through UB in tiles with
// double buffering (CopyIn on MTE2, Compute on V and CopyOut on MTE3 overlap across tiles).
// Compute: the bool bytes are widened to half (Cast uint8 -> half) and Compares != 0 turns
// them into the bit mask Select consumes. Select only moves bits, so bf16 runs as a half
// view and int32 as a float view of the same bytes.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t UNIT = 256;  // elements: see the tiling function

template <typename T>
class KernelWhere {
    // The same-size type Select is issued on.
    using S = std::conditional_t<sizeof(T) == 2, half, float>;

public:
    __aicore__ inline KernelWhere() {}
    template <typename Tiling>
    __aicore__ inline void Init(GM_ADDR condition, GM_ADDR x1, GM_ADDR x2, GM_ADDR y, const Tiling& tiling)
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

        condGm.SetGlobalBuffer((__gm__ uint8_t*)condition + offset, blockLength);
        x1Gm.SetGlobalBuffer((__gm__ T*)x1 + offset, blockLength);
        x2Gm.SetGlobalBuffer((__gm__ T*)x2 + offset, blockLength);
        yGm.SetGlobalBuffer((__gm__ T*)y + offset, blockLength);
        pipe.InitBuffer(inQueueCond, BUFFER_NUM, tileLength * sizeof(uint8_t));
        pipe.InitBuffer(inQueueX1, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(inQueueX2, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(condHalfBuf, tileLength * sizeof(half));
        pipe.InitBuffer(maskBuf, tileLength / 8);
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
        AscendC::LocalTensor<uint8_t> condLocal = inQueueCond.AllocTensor<uint8_t>();
        AscendC::LocalTensor<T> x1Local = inQueueX1.AllocTensor<T>();
        AscendC::LocalTensor<T> x2Local = inQueueX2.AllocTensor<T>();
        uint32_t len = TileElems(progress);
        uint64_t offset = static_cast<uint64_t>(progress) * tileLength;
        if (len == tileLength) {
            AscendC::DataCopy(condLocal, condGm[offset], len);
            AscendC::DataCopy(x1Local, x1Gm[offset], len);
            AscendC::DataCopy(x2Local, x2Gm[offset], len);
        } else {
            // The last tile may end inside a 32 B block: DataCopyPad moves exact bytes.
            AscendC::DataCopyExtParams condParams{1, len, 0, 0, 0};
            AscendC::DataCopyPadExtParams<uint8_t> condPad{false, 0, 0, 0};
            AscendC::DataCopyPad(condLocal, condGm[offset], condParams, condPad);
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
            AscendC::DataCopyPad(x1Local, x1Gm[offset], copyParams, padParams);
            AscendC::DataCopyPad(x2Local, x2Gm[offset], copyParams, padParams);
        }
        inQueueCond.EnQue(condLocal);
        inQueueX1.EnQue(x1Local);
        inQueueX2.EnQue(x2Local);
    }
    __aicore__ inline void Compute(uint32_t progress)
    {
        AscendC::LocalTensor<uint8_t> condLocal = inQueueCond.DeQue<uint8_t>();
        AscendC::LocalTensor<T> x1Local = inQueueX1.DeQue<T>();
        AscendC::LocalTensor<T> x2Local = inQueueX2.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        AscendC::LocalTensor<half> condHalf = condHalfBuf.Get<half>();
        AscendC::LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();
        // Whole units: Compares ignores a partial 256 B repeat. Lanes past the tile's data
        // select from leftover UB bytes; they are never copied out.
        uint32_t len = (TileElems(progress) + UNIT - 1) / UNIT * UNIT;
        AscendC::Cast(condHalf, condLocal, AscendC::RoundMode::CAST_NONE, len);
        AscendC::Compares(mask, condHalf, static_cast<half>(0.0f), AscendC::CMPMODE::NE, len);
        AscendC::Select(yLocal.template ReinterpretCast<S>(), mask, x1Local.template ReinterpretCast<S>(),
                        x2Local.template ReinterpretCast<S>(), AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, len);
        outQueueY.EnQue<T>(yLocal);
        inQueueCond.FreeTensor(condLocal);
        inQueueX1.FreeTensor(x1Local);
        inQueueX2.FreeTensor(x2Local);
    }
    __aicore__ inline void CopyOut(uint32_t progress)
    {
        AscendC::LocalTensor<T> yLocal = outQueueY.DeQue<T>();
        uint32_t len = TileElems(progress);
        uint64_t offset = static_cast<uint64_t>(progress) * tileLength;
        if (len == tileLength) {
            AscendC::DataCopy(yGm[offset], yLocal, len);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[offset], yLocal, copyParams);
        }
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueCond, inQueueX1, inQueueX2;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> condHalfBuf, maskBuf;
    AscendC::GlobalTensor<uint8_t> condGm;
    AscendC::GlobalTensor<T> x1Gm;
    AscendC::GlobalTensor<T> x2Gm;
    AscendC::GlobalTensor<T> yGm;
    uint32_t blockLength = 0;
    uint32_t tileLength = 0;
    uint32_t tileNum = 0;
    uint32_t lastTileLength = 0;
};

extern "C" __global__ __aicore__ void where_custom(GM_ADDR condition, GM_ADDR x1, GM_ADDR x2, GM_ADDR y, GM_ADDR workspace,
                                                   GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelWhere<DTYPE_X1> op;
    op.Init(condition, x1, x2, y, tilingData);
    op.Process();
}
