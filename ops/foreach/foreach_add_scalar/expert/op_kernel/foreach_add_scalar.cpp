// Kernel of ForeachAddScalarCustom (expert): y_i = x_i + alpha for a list of four tensors
// x0..x3 of any shapes (one input and one output argument per list entry). The list is one
// stream of 512 B units split evenly over the cores; each core walks the parts of the
// tensors its share covers and streams them through UB in tiles with double buffering;
// the queues are shared by the whole list. bfloat16 is computed in float (no bf16 vector
// arithmetic); float16 and float natively.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t LIST_SIZE = 4;

template <typename T>
class KernelForeachAddScalar {
    static constexpr bool COMPUTE_IN_FLOAT = std::is_same_v<T, bfloat16_t>;

public:
    __aicore__ inline KernelForeachAddScalar() {}
    template <typename Tiling>
    __aicore__ inline void Init(const GM_ADDR (&x)[LIST_SIZE], const GM_ADDR (&y)[LIST_SIZE], const Tiling& tiling)
    {
        // expert: list-level load balance. This core owns units [unitBegin, unitEnd) of the
        // stream in which tensor i occupies ceil(totalLength[i] / unitLength) units.
        uint32_t blockIdx = AscendC::GetBlockIdx();
        uint64_t unitBegin = 0;
        uint64_t unitEnd = 0;
        if (blockIdx < tiling.formerNum) {
            unitBegin = static_cast<uint64_t>(tiling.formerUnits) * blockIdx;
            unitEnd = unitBegin + tiling.formerUnits;
        } else {
            unitBegin = static_cast<uint64_t>(tiling.formerUnits) * tiling.formerNum +
                        static_cast<uint64_t>(tiling.tailUnits) * (blockIdx - tiling.formerNum);
            unitEnd = unitBegin + tiling.tailUnits;
        }
        uint64_t tensorBegin = 0;  // first unit of tensor i in the stream
        for (uint32_t i = 0; i < LIST_SIZE; i++) {
            uint64_t units = (tiling.totalLength[i] + tiling.unitLength - 1) / tiling.unitLength;
            uint64_t lo = unitBegin > tensorBegin ? unitBegin : tensorBegin;
            uint64_t hi = unitEnd < tensorBegin + units ? unitEnd : tensorBegin + units;
            uint64_t offset = 0;
            uint64_t length = 0;
            if (lo < hi) {
                offset = (lo - tensorBegin) * tiling.unitLength;
                length = (hi - lo) * tiling.unitLength;
                // The last unit of a tensor may be partial: stop at the tensor's end.
                if (offset + length > tiling.totalLength[i]) {
                    length = tiling.totalLength[i] - offset;
                }
            }
            tensorBegin += units;
            blockLength[i] = static_cast<uint32_t>(length);
            xGm[i].SetGlobalBuffer((__gm__ T*)x[i] + offset, length);
            yGm[i].SetGlobalBuffer((__gm__ T*)y[i] + offset, length);
        }
        tileLength = tiling.tileLength;
        alpha = tiling.alpha;
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(T));
        if constexpr (COMPUTE_IN_FLOAT) {
            pipe.InitBuffer(floatBuf, tileLength * sizeof(float));
        }
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < LIST_SIZE; i++) {
            uint32_t tileNum = (blockLength[i] + tileLength - 1) / tileLength;
            for (uint32_t t = 0; t < tileNum; t++) {
                uint64_t offset = static_cast<uint64_t>(t) * tileLength;
                uint32_t len = t == tileNum - 1 ? blockLength[i] - t * tileLength : tileLength;
                CopyIn(i, offset, len);
                Compute(len);
                CopyOut(i, offset, len);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t tensor, uint64_t offset, uint32_t len)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        if (len == tileLength) {
            AscendC::DataCopy(xLocal, xGm[tensor][offset], len);
        } else {
            // The last tile may end inside a 32 B block: DataCopyPad moves exact bytes.
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
            AscendC::DataCopyPad(xLocal, xGm[tensor][offset], copyParams, padParams);
        }
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void Compute(uint32_t len)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY.AllocTensor<T>();
        if constexpr (COMPUTE_IN_FLOAT) {
            AscendC::LocalTensor<float> xFloat = floatBuf.Get<float>();
            AscendC::Cast(xFloat, xLocal, AscendC::RoundMode::CAST_NONE, len);
            AscendC::Adds(xFloat, xFloat, alpha, len);
            AscendC::Cast(yLocal, xFloat, AscendC::RoundMode::CAST_RINT, len);
        } else {
            AscendC::Adds(yLocal, xLocal, static_cast<T>(alpha), len);
        }
        outQueueY.EnQue<T>(yLocal);
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t tensor, uint64_t offset, uint32_t len)
    {
        AscendC::LocalTensor<T> yLocal = outQueueY.DeQue<T>();
        if (len == tileLength) {
            AscendC::DataCopy(yGm[tensor][offset], yLocal, len);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[tensor][offset], yLocal, copyParams);
        }
        outQueueY.FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> floatBuf;
    AscendC::GlobalTensor<T> xGm[LIST_SIZE];
    AscendC::GlobalTensor<T> yGm[LIST_SIZE];
    uint32_t blockLength[LIST_SIZE] = {};
    uint32_t tileLength = 0;
    float alpha = 0.0f;
};

extern "C" __global__ __aicore__ void foreach_add_scalar_custom(GM_ADDR x0, GM_ADDR x1, GM_ADDR x2, GM_ADDR x3,
                                                                GM_ADDR y0, GM_ADDR y1, GM_ADDR y2, GM_ADDR y3,
                                                                GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    const GM_ADDR x[LIST_SIZE] = {x0, x1, x2, x3};
    const GM_ADDR y[LIST_SIZE] = {y0, y1, y2, y3};
    KernelForeachAddScalar<DTYPE_X0> op;
    op.Init(x, y, tilingData);
    op.Process();
}
