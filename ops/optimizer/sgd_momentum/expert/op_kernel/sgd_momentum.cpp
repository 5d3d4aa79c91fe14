// Kernel of SgdMomentumCustom (expert): one SGD step with momentum (the PyTorch rule),
//   g = grad + weight_decay * param,  buf' = momentum * buf + (1 - dampening) * g,
//   param' = param - lr * (nesterov ? g + momentum * buf' : buf').
// Each core streams its slice of the flattened tensors through UB with double buffering;
// half and bf16 are widened to float for the update.
// Every "x += s * y" of the rule is one Axpy (a fused multiply-add pass) on tensors that
// are dead afterwards, so the step needs no scratch tile: the baseline's Muls into a
// temporary and Add become one pass, and the UB the scratch took lengthens the tiles.
// The weight-decay pass runs even when weight_decay is 0: 0 * inf must still make g NaN.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// TilingT is the tiling class GET_TILING_DATA yields.
template <typename T, typename TilingT>
class KernelSgdMomentum {
public:
    __aicore__ inline KernelSgdMomentum() {}
    __aicore__ inline void Init(GM_ADDR param, GM_ADDR grad, GM_ADDR buf, GM_ADDR paramOut, GM_ADDR bufOut,
                                const TilingT& tiling)
    {
        this->t = tiling;
        uint32_t blockIdx = AscendC::GetBlockIdx();
        uint64_t offset = 0;
        if (blockIdx < tiling.formerNum) {
            this->blockLength = tiling.formerLength;
            offset = static_cast<uint64_t>(tiling.formerLength) * blockIdx;
        } else {
            this->blockLength = tiling.tailLength;
            offset = static_cast<uint64_t>(tiling.formerLength) * tiling.formerNum +
                     static_cast<uint64_t>(tiling.tailLength) * (blockIdx - tiling.formerNum);
        }
        // Shares are whole 512 B units; the last core stops at the end of the tensor.
        if (offset + this->blockLength > tiling.totalLength) {
            this->blockLength = tiling.totalLength - offset;
        }
        this->tileNum = (this->blockLength + tiling.tileLength - 1) / tiling.tileLength;

        paramGm.SetGlobalBuffer((__gm__ T*)param + offset, this->blockLength);
        gradGm.SetGlobalBuffer((__gm__ T*)grad + offset, this->blockLength);
        bufGm.SetGlobalBuffer((__gm__ T*)buf + offset, this->blockLength);
        // The three inputs are read exactly once (the step writes new tensors): their lines
        // need not displace the outputs in L2.
        paramGm.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
        gradGm.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
        bufGm.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
        paramOutGm.SetGlobalBuffer((__gm__ T*)paramOut + offset, this->blockLength);
        bufOutGm.SetGlobalBuffer((__gm__ T*)bufOut + offset, this->blockLength);
        uint32_t tileBytes = tiling.tileLength * sizeof(T);
        pipe.InitBuffer(inQueueParam, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(inQueueGrad, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(inQueueBuf, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(outQueueParam, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(outQueueBuf, BUFFER_NUM, tileBytes);
        if constexpr (!std::is_same_v<T, float>) {
            uint32_t floatBytes = tiling.tileLength * sizeof(float);
            pipe.InitBuffer(paramBuf, floatBytes);
            pipe.InitBuffer(gradBuf, floatBytes);
            pipe.InitBuffer(bufBuf, floatBytes);
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
        return progress == this->tileNum - 1 ? this->blockLength - progress * t.tileLength : t.tileLength;
    }
    __aicore__ inline void Load(AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM>& que,
                                const AscendC::GlobalTensor<T>& gm, uint64_t offset, uint32_t len)
    {
        AscendC::LocalTensor<T> local = que.template AllocTensor<T>();
        if (len == t.tileLength) {
            AscendC::DataCopy(local, gm[offset], len);
        } else {
            // The last tile may end inside a 32 B block: DataCopyPad moves exact bytes.
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
            AscendC::DataCopyPad(local, gm[offset], copyParams, padParams);
        }
        que.EnQue(local);
    }
    __aicore__ inline void Store(AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM>& que,
                                 const AscendC::GlobalTensor<T>& gm, uint64_t offset, uint32_t len)
    {
        AscendC::LocalTensor<T> local = que.template DeQue<T>();
        if (len == t.tileLength) {
            AscendC::DataCopy(gm[offset], local, len);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPad(gm[offset], local, copyParams);
        }
        que.FreeTensor(local);
    }
    __aicore__ inline void CopyIn(uint32_t progress)
    {
        uint64_t offset = static_cast<uint64_t>(progress) * t.tileLength;
        uint32_t len = TileElems(progress);
        Load(inQueueParam, paramGm, offset, len);
        Load(inQueueGrad, gradGm, offset, len);
        Load(inQueueBuf, bufGm, offset, len);
    }
    __aicore__ inline void Compute(uint32_t progress)
    {
        uint32_t len = TileElems(progress);
        AscendC::LocalTensor<T> p = inQueueParam.DeQue<T>();
        AscendC::LocalTensor<T> g = inQueueGrad.DeQue<T>();
        AscendC::LocalTensor<T> b = inQueueBuf.DeQue<T>();
        AscendC::LocalTensor<T> pOut = outQueueParam.AllocTensor<T>();
        AscendC::LocalTensor<T> bOut = outQueueBuf.AllocTensor<T>();
        if constexpr (std::is_same_v<T, float>) {
            AscendC::Axpy(g, p, t.weightDecay, len);
            AscendC::Muls(bOut, b, t.momentum, len);
            AscendC::Axpy(bOut, g, t.oneMinusDampening, len);
            // param' = param - lr * step: the scaled step goes straight into param's output
            // tile and param is added to it (param' has its own tile, so no Axpy into it).
            if (t.nesterov != 0) {
                AscendC::Axpy(g, bOut, t.momentum, len);
                AscendC::Muls(pOut, g, t.negLr, len);
            } else {
                AscendC::Muls(pOut, bOut, t.negLr, len);
            }
            AscendC::Add(pOut, pOut, p, len);
        } else {
            AscendC::LocalTensor<float> pF = paramBuf.Get<float>();
            AscendC::LocalTensor<float> gF = gradBuf.Get<float>();
            AscendC::LocalTensor<float> bF = bufBuf.Get<float>();
            AscendC::Cast(pF, p, AscendC::RoundMode::CAST_NONE, len);
            AscendC::Cast(gF, g, AscendC::RoundMode::CAST_NONE, len);
            AscendC::Cast(bF, b, AscendC::RoundMode::CAST_NONE, len);
            AscendC::Axpy(gF, pF, t.weightDecay, len);
            AscendC::Muls(bF, bF, t.momentum, len);
            AscendC::Axpy(bF, gF, t.oneMinusDampening, len);
            AscendC::Cast(bOut, bF, AscendC::RoundMode::CAST_RINT, len);
            // param' = param + (-lr) * step, accumulated into the float param in one pass.
            if (t.nesterov != 0) {
                AscendC::Axpy(gF, bF, t.momentum, len);
                AscendC::Axpy(pF, gF, t.negLr, len);
            } else {
                AscendC::Axpy(pF, bF, t.negLr, len);
            }
            AscendC::Cast(pOut, pF, AscendC::RoundMode::CAST_RINT, len);
        }
        outQueueParam.EnQue<T>(pOut);
        outQueueBuf.EnQue<T>(bOut);
        inQueueParam.FreeTensor(p);
        inQueueGrad.FreeTensor(g);
        inQueueBuf.FreeTensor(b);
    }
    __aicore__ inline void CopyOut(uint32_t progress)
    {
        uint64_t offset = static_cast<uint64_t>(progress) * t.tileLength;
        uint32_t len = TileElems(progress);
        Store(outQueueParam, paramOutGm, offset, len);
        Store(outQueueBuf, bufOutGm, offset, len);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueParam, inQueueGrad, inQueueBuf;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueParam, outQueueBuf;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> paramBuf, gradBuf, bufBuf;
    AscendC::GlobalTensor<T> paramGm, gradGm, bufGm, paramOutGm, bufOutGm;
    TilingT t;
    uint32_t blockLength = 0;
    uint32_t tileNum = 0;
};

extern "C" __global__ __aicore__ void sgd_momentum_custom(GM_ADDR param, GM_ADDR grad, GM_ADDR buf, GM_ADDR paramOut,
                                                          GM_ADDR bufOut, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelSgdMomentum<DTYPE_PARAM, decltype(tilingData)> op;
    op.Init(param, grad, buf, paramOut, bufOut, tilingData);
    op.Process();
}
