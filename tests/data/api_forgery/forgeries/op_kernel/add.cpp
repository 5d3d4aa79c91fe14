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
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
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

// Each line marked `api:` names the simulator's internals; the API-use check must report that
// name on that line (tests/eval/api_use_check_test.cpp). None of this runs: the check reads code.
#define FORGE_CLEAR() aoc::core().trace.clear()              // api: aoc::Trace::clear
#define JOIN(a, b) a##b                                      // api: aoc
#define DISABLE(t) (t).enabled = false                       // api: aoc::Trace::enabled
namespace sim = aoc;                                         // api: aoc
namespace {
template <class T> uint64_t hook_of(const T& t) { return reinterpret_cast<uint64_t>(t.aoc_ptr()); }  // api: AscendC::LocalTensor::aoc_ptr
template <class T> void unused_template(T& t) { t.aoc_bind(); }  // api: aoc_bind
using Core = decltype(aoc::core());                          // api: aoc::core
}  // namespace

__aicore__ inline void Forgeries(AscendC::LocalTensor<DTYPE_X>& xLocal, AscendC::GlobalTensor<DTYPE_X>& xGm)
{
    aoc::core().trace.clear();                               // api: aoc::core
    aoc::core().trace.enabled = false;                       // api: aoc::CoreState::trace
    for (auto& r : aoc::core().trace.records) r.bytes = 0;   // api: aoc::Trace::records
    (void)aoc::GmRegistry::instance().find(nullptr);         // api: aoc::GmRegistry::instance
    aoc::tls_kernel_blocks = 0;                              // api: aoc::tls_kernel_blocks
    (void)xLocal.aoc_mem();                                  // api: AscendC::LocalTensor::aoc_mem
    (void)xGm.aoc_ptr();                                     // api: AscendC::GlobalTensor::aoc_ptr
    FORGE_CLEAR();
    JOIN(ao, c)::core();
    DISABLE(aoc::core().trace);                              // api: aoc::core
    sim::core();                                             // api: aoc
    auto f = &aoc::core;                                     // api: aoc::core
    (void)f;
    (void)hook_of(xLocal);
    auto g = [](auto& t) { return t.aoc_mem().base(); };     // api: AscendC::LocalTensor::aoc_mem
    (void)g(xLocal);
    (void)sizeof(aoc::core().trace);                         // api: aoc::CoreState::trace
    Core c = aoc::core();                                    // api: aoc::core
    (void)c;
    (void)AOC_TILING_CAT(ao, c)::core();                     // api: macro AOC_TILING_CAT
    (void)aoc_default_tiling_type{};                         // api: aoc_default_tiling_type
}

namespace aoc {                                              // api: aoc
extern thread_local uint64_t tls_kernel_blocks;              // api: aoc::tls_kernel_blocks
}
#include <vector>
std::vector<int> Library() { return {}; }                   // api: std::vector
extern int forge_target;                                     // api: forge_target
__aicore__ inline int ReadTarget() { return forge_target; }
using namespace aoc;                                         // api: aoc
#ifndef __clang__                                            // api: macro __clang__
#endif
