// Kernel of ForeachMulListCustom: z_i = x_i * y_i for two lists of four tensors (x0..x3 and
// y0..y3, x_i and y_i of the same shape; one argument per list entry). Each core takes its
// own slice of every pair in turn and streams it through UB in tiles with double
// buffering; the queues are shared by the whole list. bfloat16 is computed in float (no
// bf16 vector arithmetic); float16 and float natively.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t LIST_SIZE = 4;

template <typename T>
class KernelForeachMulList {
    static constexpr bool COMPUTE_IN_FLOAT = std::is_same_v<T, bfloat16_t>;

public:
    __aicore__ inline KernelForeachMulList() {}
    template <typename Tiling>
    __aicore__ inline void Init(const GM_ADDR (&x)[LIST_SIZE], const GM_ADDR (&y)[LIST_SIZE],
                                const GM_ADDR (&z)[LIST_SIZE], const Tiling& tiling)
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
            zGm[i].SetGlobalBuffer((__gm__ T*)z[i] + offset, length);
        }
        tileLength = tiling.tileLength;
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(T));
        if constexpr (COMPUTE_IN_FLOAT) {
            pipe.InitBuffer(xFloatBuf, tileLength * sizeof(float));
            pipe.InitBuffer(yFloatBuf, tileLength * sizeof(float));
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
    __aicore__ inline void CopyIn(uint32_t pair, uint64_t offset, uint32_t len)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        AscendC::LocalTensor<T> yLocal = inQueueY.AllocTensor<T>();
        if (len == tileLength) {
            AscendC::DataCopy(xLocal, xGm[pair][offset], len);
            AscendC::DataCopy(yLocal, yGm[pair][offset], len);
        } else {
            // The last tile may end inside a 32 B block: DataCopyPad moves exact bytes.
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
            AscendC::DataCopyPad(xLocal, xGm[pair][offset], copyParams, padParams);
            AscendC::DataCopyPad(yLocal, yGm[pair][offset], copyParams, padParams);
        }
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }
    __aicore__ inline void Compute(uint32_t len)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = inQueueY.DeQue<T>();
        AscendC::LocalTensor<T> zLocal = outQueueZ.AllocTensor<T>();
        if constexpr (COMPUTE_IN_FLOAT) {
            AscendC::LocalTensor<float> xFloat = xFloatBuf.Get<float>();
            AscendC::LocalTensor<float> yFloat = yFloatBuf.Get<float>();
            AscendC::Cast(xFloat, xLocal, AscendC::RoundMode::CAST_NONE, len);
            AscendC::Cast(yFloat, yLocal, AscendC::RoundMode::CAST_NONE, len);
            AscendC::Mul(xFloat, xFloat, yFloat, len);
            AscendC::Cast(zLocal, xFloat, AscendC::RoundMode::CAST_RINT, len);
        } else {
            AscendC::Mul(zLocal, xLocal, yLocal, len);
        }
        outQueueZ.EnQue<T>(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }
    __aicore__ inline void CopyOut(uint32_t pair, uint64_t offset, uint32_t len)
    {
        AscendC::LocalTensor<T> zLocal = outQueueZ.DeQue<T>();
        if (len == tileLength) {
            AscendC::DataCopy(zGm[pair][offset], zLocal, len);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPad(zGm[pair][offset], zLocal, copyParams);
        }
        outQueueZ.FreeTensor(zLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> xFloatBuf, yFloatBuf;
    AscendC::GlobalTensor<T> xGm[LIST_SIZE];
    AscendC::GlobalTensor<T> yGm[LIST_SIZE];
    AscendC::GlobalTensor<T> zGm[LIST_SIZE];
    uint32_t blockLength[LIST_SIZE] = {};
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void foreach_mul_list_custom(GM_ADDR x0, GM_ADDR x1, GM_ADDR x2, GM_ADDR x3,
                                                              GM_ADDR y0, GM_ADDR y1, GM_ADDR y2, GM_ADDR y3,
                                                              GM_ADDR z0, GM_ADDR z1, GM_ADDR z2, GM_ADDR z3,
                                                              GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    const GM_ADDR x[LIST_SIZE] = {x0, x1, x2, x3};
    const GM_ADDR y[LIST_SIZE] = {y0, y1, y2, y3};
    const GM_ADDR z[LIST_SIZE] = {z0, z1, z2, z3};
    KernelForeachMulList<DTYPE_X0> op;
    op.Init(x, y, z, tilingData);
    op.Process();
}
