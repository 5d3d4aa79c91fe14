// Kernel of CastCustom: y = x converted to the output dtype. Each core takes a contiguous
// slice of the flattened tensor and streams it through UB in tiles with double buffering
// (CopyIn on MTE2, Compute on V and CopyOut on MTE3 overlap across tiles).
// Conversions (round modes as in op.toml):
//   float -> half      CAST_NONE (round to nearest even; overflow to inf)
//   float -> bfloat16  CAST_RINT (round to nearest even)
//   half/bf16 -> float CAST_NONE (exact)
//   half -> int8       CAST_RINT, saturating; NaN -> 0
//   float -> int8      no direct vector conversion: float -> int16 (CAST_RINT, saturating,
//                      NaN -> 0), clamp to [-128, 127] in int16, then int16 -> half ->
//                      int8, both exact for those integers. Going float -> half first
//                      would round twice (2.5000002 -> 2.5 -> 2 instead of 3).
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename TX, typename TY>
class KernelCast {
    static constexpr bool FLOAT_TO_INT8 = std::is_same_v<TX, float> && std::is_same_v<TY, int8_t>;

public:
    __aicore__ inline KernelCast() {}
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

        xGm.SetGlobalBuffer((__gm__ TX*)x + offset, blockLength);
        yGm.SetGlobalBuffer((__gm__ TY*)y + offset, blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(TX));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(TY));
        if constexpr (FLOAT_TO_INT8) {
            pipe.InitBuffer(int16Buf, tileLength * sizeof(int16_t));
            pipe.InitBuffer(halfBuf, tileLength * sizeof(half));
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
    __aicore__ inline uint32_t TileElems(uint32_t progress) const
    {
        return progress == tileNum - 1 ? lastTileLength : tileLength;
    }
    __aicore__ inline void CopyIn(uint32_t progress)
    {
        AscendC::LocalTensor<TX> xLocal = inQueueX.AllocTensor<TX>();
        uint32_t len = TileElems(progress);
        uint64_t offset = static_cast<uint64_t>(progress) * tileLength;
        if (len == tileLength) {
            AscendC::DataCopy(xLocal, xGm[offset], len);
        } else {
            // The last tile may end inside a 32 B block: DataCopyPad moves exact bytes.
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(TX)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<TX> padParams{false, 0, 0, 0};
            AscendC::DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
        }
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void Compute(uint32_t progress)
    {
        AscendC::LocalTensor<TX> xLocal = inQueueX.DeQue<TX>();
        AscendC::LocalTensor<TY> yLocal = outQueueY.AllocTensor<TY>();
        int32_t len = static_cast<int32_t>(TileElems(progress));
        if constexpr (FLOAT_TO_INT8) {
            AscendC::LocalTensor<int16_t> i16 = int16Buf.Get<int16_t>();
            AscendC::LocalTensor<half> h = halfBuf.Get<half>();
            AscendC::Cast(i16, xLocal, AscendC::RoundMode::CAST_RINT, len);
            AscendC::Maxs(i16, i16, static_cast<int16_t>(-128), len);
            AscendC::Mins(i16, i16, static_cast<int16_t>(127), len);
            AscendC::Cast(h, i16, AscendC::RoundMode::CAST_NONE, len);
            AscendC::Cast(yLocal, h, AscendC::RoundMode::CAST_NONE, len);
        } else if constexpr (std::is_same_v<TY, int8_t> || std::is_same_v<TY, bfloat16_t>) {
            AscendC::Cast(yLocal, xLocal, AscendC::RoundMode::CAST_RINT, len);
        } else {
            AscendC::Cast(yLocal, xLocal, AscendC::RoundMode::CAST_NONE, len);
        }
        outQueueY.EnQue<TY>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t progress)
    {
        AscendC::LocalTensor<TY> yLocal = outQueueY.DeQue<TY>();
        uint32_t len = TileElems(progress);
        uint64_t offset = static_cast<uint64_t>(progress) * tileLength;
        if (len == tileLength) {
            AscendC::DataCopy(yGm[offset], yLocal, len);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(TY)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[offset], yLocal, copyParams);
        }
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> int16Buf, halfBuf;
    AscendC::GlobalTensor<TX> xGm;
    AscendC::GlobalTensor<TY> yGm;
    uint32_t blockLength = 0;
    uint32_t tileLength = 0;
    uint32_t tileNum = 0;
    uint32_t lastTileLength = 0;
};

extern "C" __global__ __aicore__ void cast_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelCast<DTYPE_X, DTYPE_Y> op;
    op.Init(x, y, tilingData);
    op.Process();
}
