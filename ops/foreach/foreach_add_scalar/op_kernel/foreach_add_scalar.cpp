// Kernel of ForeachAddScalarCustom: y_i = x_i + alpha for a list of four tensors x0..x3 of
// any shapes (one input and one output argument per list entry). Each core takes its own
// slice of every tensor in turn and streams it through UB in tiles with double buffering;
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
        uint32_t blockIdx = AscendC::GetBlockIdx();
        for (uint32_t i = 0; i < LIST_SIZE; i++) {
            uint64_t offset = 0;
            uint32_t length = 0;
            if (blockIdx < tiling.formerNum[i]) {
                length = tiling.formerLength[i];
                offset = static_cast<uint64_t>(tiling.formerLength[i]) * blockIdx;
            } else {
                length = tiling.tailLength[i];
                offset = static_cast<uint64_t>(tiling.formerLength[i]) * tiling.formerNum[i] +
                         static_cast<uint64_t>(tiling.tailLength[i]) * (blockIdx - tiling.formerNum[i]);
            }
            // Shares are whole 32 B blocks: cut at the end of the tensor (possibly to nothing).
            if (offset >= tiling.totalLength[i]) {
                length = 0;
                offset = 0;
            } else if (offset + length > tiling.totalLength[i]) {
                length = tiling.totalLength[i] - offset;
            }
            blockLength[i] = length;
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
