// Kernel of HardSigmoidCustom (expert): y = clamp(x / 6 + 1/2, 0, 1) (torch Hardsigmoid).
// Each core takes a contiguous slice of the flattened tensor and streams it through UB
// in tiles with double buffering (CopyIn on MTE2, Compute on V, CopyOut on MTE3 overlap).
// float16 and bfloat16 are computed in float: x / 6 + 1/2 cancels towards 0 near x = -3,
// where float16 rounding of the two steps leaves errors the tolerance does not accept.
// Every step takes its scalar form (Muls/Adds/Maxs/Mins, no
// Duplicate'd constant tiles) and the division by 6 is a multiply by its reciprocal.
#include <type_traits>
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t OP_WORK_TILES = 0;  // work tiles of the formula: none, computed in place in y

template <typename T>
class KernelHardSigmoid {
    using ComputeT = float;  // 16-bit types too (see above)
public:
    __aicore__ inline KernelHardSigmoid() {}
    template <typename Tiling>  // the struct GET_TILING_DATA declares
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const Tiling& t)
    {
        uint32_t blockIdx = AscendC::GetBlockIdx();
        uint64_t offset = 0;
        if (blockIdx < t.formerNum) {
            this->blockLength = t.formerLength;
            offset = static_cast<uint64_t>(t.formerLength) * blockIdx;
        } else {
            this->blockLength = t.tailLength;
            offset = static_cast<uint64_t>(t.formerLength) * t.formerNum +
                     static_cast<uint64_t>(t.tailLength) * (blockIdx - t.formerNum);
        }
        // Shares are whole 32 B blocks; the last core stops at the end of the tensor.
        if (offset + this->blockLength > t.totalLength) {
            this->blockLength = t.totalLength - offset;
        }
        this->tileLength = t.tileLength;
        this->tileNum = (this->blockLength + t.tileLength - 1) / t.tileLength;
        this->lastTileLength = this->blockLength - (this->tileNum - 1) * t.tileLength;

        xGm.SetGlobalBuffer((__gm__ T*)x + offset, this->blockLength);
        // xGm is read exactly once: its lines need not displace the output in L2.
        xGm.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
        yGm.SetGlobalBuffer((__gm__ T*)y + offset, this->blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, this->tileLength * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, this->tileLength * sizeof(T));
        constexpr uint32_t floatTiles = OP_WORK_TILES + (std::is_same_v<T, ComputeT> ? 0 : 2);
        if constexpr (floatTiles > 0) {
            pipe.InitBuffer(calcBuf, floatTiles * this->tileLength * sizeof(ComputeT));
        }
    }
    __aicore__ inline void Process()
    {
        // Two tiles per iteration, each stage issued for both: the second tile's copy-in is
        // queued on MTE2 before the first tile's compute waits for its data.
        for (uint32_t i = 0; i + 1 < this->tileNum; i += 2) {
            CopyIn(i);
            CopyIn(i + 1);
            Compute(i);
            Compute(i + 1);
            CopyOut(i);
            CopyOut(i + 1);
        }
        if (this->tileNum % 2 != 0) {
            CopyIn(this->tileNum - 1);
            Compute(this->tileNum - 1);
            CopyOut(this->tileNum - 1);
        }
    }

private:
    __aicore__ inline uint32_t TileElems(uint32_t progress) const
    {
        return progress == this->tileNum - 1 ? this->lastTileLength : this->tileLength;
    }
    __aicore__ inline void CopyIn(uint32_t progress)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        uint32_t len = TileElems(progress);
        uint64_t offset = static_cast<uint64_t>(progress) * this->tileLength;
        if (len == this->tileLength) {
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
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        uint32_t len = TileElems(progress);
        AscendC::LocalTensor<ComputeT> xf;
        AscendC::LocalTensor<ComputeT> yf;
        if constexpr (std::is_same_v<T, ComputeT>) {
            xf = xLocal;
            yf = yLocal;
        } else {
            xf = calcBuf.Get<ComputeT>();
            yf = xf[this->tileLength];
            AscendC::Cast(xf, xLocal, AscendC::RoundMode::CAST_NONE, len);
        }
        AscendC::Muls(yf, xf, 1.0f / 6.0f, len);
        AscendC::Adds(yf, yf, 0.5f, len);
        AscendC::Maxs(yf, yf, 0.0f, len);
        AscendC::Mins(yf, yf, 1.0f, len);
        if constexpr (!std::is_same_v<T, ComputeT>) {
            AscendC::Cast(yLocal, yf, AscendC::RoundMode::CAST_RINT, len);
        }
        outQueueY.EnQue<T>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t progress)
    {
        AscendC::LocalTensor<T> yLocal = outQueueY.DeQue<T>();
        uint32_t len = TileElems(progress);
        uint64_t offset = static_cast<uint64_t>(progress) * this->tileLength;
        if (len == this->tileLength) {
            AscendC::DataCopy(yGm[offset], yLocal, len);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[offset], yLocal, copyParams);
        }
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> calcBuf;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> yGm;
    uint32_t blockLength = 0;
    uint32_t tileLength = 0;
    uint32_t tileNum = 0;
    uint32_t lastTileLength = 0;
};

extern "C" __global__ __aicore__ void hard_sigmoid_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelHardSigmoid<DTYPE_X> op;
    op.Init(x, y, tilingData);
    op.Process();
}
