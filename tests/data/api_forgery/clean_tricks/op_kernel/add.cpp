// Kernel of AddCustom: z = x + y. Each core takes a contiguous slice of the
// flattened tensor and streams it through UB in tiles with double buffering
// (CopyIn on MTE2, Compute on V and CopyOut on MTE3 overlap across tiles).
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

class KernelAdd {
public:
    __aicore__ inline KernelAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t formerNum,
                                uint32_t formerLength, uint32_t tailLength, uint32_t tileLength)
    {
        uint32_t blockIdx = AscendC::GetBlockIdx();
        uint64_t offset = 0;
        if (blockIdx < formerNum) {
            this->blockLength = formerLength;
            offset = static_cast<uint64_t>(formerLength) * blockIdx;
        } else {
            this->blockLength = tailLength;
            offset = static_cast<uint64_t>(formerLength) * formerNum +
                     static_cast<uint64_t>(tailLength) * (blockIdx - formerNum);
        }
        // Shares are whole 32 B blocks; the last core stops at the end of the tensor.
        if (offset + this->blockLength > totalLength) {
            this->blockLength = totalLength - offset;
        }
        this->tileLength = tileLength;
        this->tileNum = (this->blockLength + tileLength - 1) / tileLength;
        this->lastTileLength = this->blockLength - (this->tileNum - 1) * tileLength;

        xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x + offset, this->blockLength);
        yGm.SetGlobalBuffer((__gm__ DTYPE_Y*)y + offset, this->blockLength);
        zGm.SetGlobalBuffer((__gm__ DTYPE_Z*)z + offset, this->blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, this->tileLength * sizeof(DTYPE_X));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, this->tileLength * sizeof(DTYPE_Y));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, this->tileLength * sizeof(DTYPE_Z));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < this->tileNum; i++) {
            CopyIn(i);
            Compute(i);
            CopyOut(i);
        }
    }

private:
    __aicore__ inline uint32_t TileElems(uint32_t progress) const
    {
        return progress == this->tileNum - 1 ? this->lastTileLength : this->tileLength;
    }
    __aicore__ inline void CopyIn(uint32_t progress)
    {
        AscendC::LocalTensor<DTYPE_X> xLocal = inQueueX.AllocTensor<DTYPE_X>();
        AscendC::LocalTensor<DTYPE_Y> yLocal = inQueueY.AllocTensor<DTYPE_Y>();
        uint32_t len = TileElems(progress);
        uint64_t offset = static_cast<uint64_t>(progress) * this->tileLength;
        if (len == this->tileLength) {
            AscendC::DataCopy(xLocal, xGm[offset], len);
            AscendC::DataCopy(yLocal, yGm[offset], len);
        } else {
            // The last tile may end inside a 32 B block: DataCopyPad moves exact bytes.
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(DTYPE_X)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<DTYPE_X> padParams{false, 0, 0, 0};
            AscendC::DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
            AscendC::DataCopyPad(yLocal, yGm[offset], copyParams, padParams);
        }
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }
    __aicore__ inline void Compute(uint32_t progress)
    {
        AscendC::LocalTensor<DTYPE_X> xLocal = inQueueX.DeQue<DTYPE_X>();
        AscendC::LocalTensor<DTYPE_Y> yLocal = inQueueY.DeQue<DTYPE_Y>();
        AscendC::LocalTensor<DTYPE_Z> zLocal = outQueueZ.AllocTensor<DTYPE_Z>();
        AscendC::Add(zLocal, xLocal, yLocal, TileElems(progress));
        outQueueZ.EnQue<DTYPE_Z>(zLocal);
        // `.template` without an argument list, as public kernels write it: g++ and the device
        // compiler accept it, clang 19 only when told to.
        this->inQueueX.template FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
        // The device declares GetTPipePtr outside the namespace too.
        (void)GetTPipePtr();
    }
    __aicore__ inline void CopyOut(uint32_t progress)
    {
        AscendC::LocalTensor<DTYPE_Z> zLocal = outQueueZ.DeQue<DTYPE_Z>();
        uint32_t len = TileElems(progress);
        uint64_t offset = static_cast<uint64_t>(progress) * this->tileLength;
        if (len == this->tileLength) {
            AscendC::DataCopy(zGm[offset], zLocal, len);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(DTYPE_Z)), 0, 0, 0};
            AscendC::DataCopyPad(zGm[offset], zLocal, copyParams);
        }
        outQueueZ.FreeTensor(zLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
    AscendC::GlobalTensor<DTYPE_X> xGm;
    AscendC::GlobalTensor<DTYPE_Y> yGm;
    AscendC::GlobalTensor<DTYPE_Z> zGm;
    uint32_t blockLength = 0;
    uint32_t tileLength = 0;
    uint32_t tileNum = 0;
    uint32_t lastTileLength = 0;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelAdd op;
    op.Init(x, y, z, tilingData.totalLength, tilingData.formerNum, tilingData.formerLength, tilingData.tailLength,
            tilingData.tileLength);
    op.Process();
}

// Code that looks close to the internals and is allowed (tests/eval/api_use_check_test.cpp):
// API value types with their operators and conversions, the tiling macros, a short list of
// the C++ library, the candidate's own pasted names, namespace aliases and using-directives
// of the API.
#include <cmath>
#include <limits>

#define OWN_JOIN(a, b) a##b
namespace asc = AscendC;
using namespace AscendC;
namespace {
constexpr uint32_t OWN_JOIN(tile_, cap) = 4096;
template <class T> T Clamp(T v, T lo, T hi) { return std::min(std::max(v, lo), hi); }
}  // namespace

__aicore__ inline float Tricks(asc::LocalTensor<half>& t, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    half a = half(1.0f) + half(2.0f);
    bfloat16_t b = bfloat16_t(a) * 2.0f;
    float16_t c = -a;
    a += 1.0f;
    float s = std::numeric_limits<float>::max() + static_cast<float>(b) + std::abs(-1.0f) + std::sqrt(4.0f);
    auto lambda = [](auto& x) { return x.GetSize(); };
    s += static_cast<float>(lambda(t)) + Clamp<uint32_t>(tilingData.tileLength, 1u, tile_cap);
    if (TILING_KEY_IS(1)) s += 1.0f;
    AscendC::SetVectorMask<half, AscendC::MaskMode::COUNTER>(128);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    if ASCEND_IS_AIV { s += 2.0f; }
    std::size_t n = sizeof(half) + static_cast<std::size_t>(GetBlockNum());
    return s + static_cast<float>(c) + static_cast<float>(n) + t.GetValue(0);
}
