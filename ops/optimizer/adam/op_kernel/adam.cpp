// Kernel of AdamCustom: one Adam step,
//   m' = beta1 m + (1 - beta1) g,  v' = beta2 v + (1 - beta2) g^2,
//   param' = param - lr / (1 - beta1^t) * m' / (sqrt(v') / sqrt(1 - beta2^t) + eps).
// Each core streams its slice of the flattened tensors through UB with double
// buffering; half and bf16 are widened to float for the update, as the small
// (1 - beta) terms and the square root lose too much in 16 bits.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// TilingT is the tiling class GET_TILING_DATA yields.
template <typename T, typename TilingT>
class KernelAdam {
public:
    __aicore__ inline KernelAdam() {}
    __aicore__ inline void Init(GM_ADDR param, GM_ADDR grad, GM_ADDR m, GM_ADDR v, GM_ADDR paramOut, GM_ADDR mOut,
                                GM_ADDR vOut, const TilingT& tiling)
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
        // Shares are whole 32 B blocks; the last core stops at the end of the tensor.
        if (offset + this->blockLength > tiling.totalLength) {
            this->blockLength = tiling.totalLength - offset;
        }
        this->tileNum = (this->blockLength + tiling.tileLength - 1) / tiling.tileLength;

        paramGm.SetGlobalBuffer((__gm__ T*)param + offset, this->blockLength);
        gradGm.SetGlobalBuffer((__gm__ T*)grad + offset, this->blockLength);
        mGm.SetGlobalBuffer((__gm__ T*)m + offset, this->blockLength);
        vGm.SetGlobalBuffer((__gm__ T*)v + offset, this->blockLength);
        paramOutGm.SetGlobalBuffer((__gm__ T*)paramOut + offset, this->blockLength);
        mOutGm.SetGlobalBuffer((__gm__ T*)mOut + offset, this->blockLength);
        vOutGm.SetGlobalBuffer((__gm__ T*)vOut + offset, this->blockLength);
        uint32_t tileBytes = tiling.tileLength * sizeof(T);
        pipe.InitBuffer(inQueueParam, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(inQueueGrad, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(inQueueM, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(inQueueV, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(outQueueParam, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(outQueueM, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(outQueueV, BUFFER_NUM, tileBytes);
        uint32_t floatBytes = tiling.tileLength * sizeof(float);
        pipe.InitBuffer(tmpBuf, floatBytes);
        if constexpr (!std::is_same_v<T, float>) {
            pipe.InitBuffer(paramBuf, floatBytes);
            pipe.InitBuffer(gradBuf, floatBytes);
            pipe.InitBuffer(mBuf, floatBytes);
            pipe.InitBuffer(vBuf, floatBytes);
        }
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < this->tileNum; i++) {
            uint32_t len = (i == this->tileNum - 1) ? this->blockLength - i * t.tileLength : t.tileLength;
            uint64_t offset = static_cast<uint64_t>(i) * t.tileLength;
            CopyIn(offset, len);
            Compute(len);
            CopyOut(offset, len);
        }
    }

private:
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
    __aicore__ inline void CopyIn(uint64_t offset, uint32_t len)
    {
        Load(inQueueParam, paramGm, offset, len);
        Load(inQueueGrad, gradGm, offset, len);
        Load(inQueueM, mGm, offset, len);
        Load(inQueueV, vGm, offset, len);
    }
    // The update in float; destinations may alias their sources (every step is elementwise).
    __aicore__ inline void Update(const AscendC::LocalTensor<float>& pDst, const AscendC::LocalTensor<float>& mDst,
                                  const AscendC::LocalTensor<float>& vDst, const AscendC::LocalTensor<float>& p,
                                  const AscendC::LocalTensor<float>& g, const AscendC::LocalTensor<float>& m,
                                  const AscendC::LocalTensor<float>& v, uint32_t len)
    {
        AscendC::LocalTensor<float> tmp = tmpBuf.Get<float>();
        AscendC::Muls(mDst, m, t.beta1, len);
        AscendC::Axpy(mDst, g, t.oneMinusBeta1, len);
        AscendC::Mul(tmp, g, g, len);
        AscendC::Muls(vDst, v, t.beta2, len);
        AscendC::Axpy(vDst, tmp, t.oneMinusBeta2, len);
        AscendC::Sqrt(tmp, vDst, len);
        AscendC::Muls(tmp, tmp, t.invSqrtBias2, len);
        AscendC::Adds(tmp, tmp, t.eps, len);
        AscendC::Div(tmp, mDst, tmp, len);
        AscendC::Muls(tmp, tmp, t.negStepSize, len);
        AscendC::Add(pDst, p, tmp, len);
    }
    __aicore__ inline void Compute(uint32_t len)
    {
        AscendC::LocalTensor<T> p = inQueueParam.DeQue<T>();
        AscendC::LocalTensor<T> g = inQueueGrad.DeQue<T>();
        AscendC::LocalTensor<T> m = inQueueM.DeQue<T>();
        AscendC::LocalTensor<T> v = inQueueV.DeQue<T>();
        AscendC::LocalTensor<T> pOut = outQueueParam.AllocTensor<T>();
        AscendC::LocalTensor<T> mOut = outQueueM.AllocTensor<T>();
        AscendC::LocalTensor<T> vOut = outQueueV.AllocTensor<T>();
        if constexpr (std::is_same_v<T, float>) {
            Update(pOut, mOut, vOut, p, g, m, v, len);
        } else {
            AscendC::LocalTensor<float> pF = paramBuf.Get<float>();
            AscendC::LocalTensor<float> gF = gradBuf.Get<float>();
            AscendC::LocalTensor<float> mF = mBuf.Get<float>();
            AscendC::LocalTensor<float> vF = vBuf.Get<float>();
            AscendC::Cast(pF, p, AscendC::RoundMode::CAST_NONE, len);
            AscendC::Cast(gF, g, AscendC::RoundMode::CAST_NONE, len);
            AscendC::Cast(mF, m, AscendC::RoundMode::CAST_NONE, len);
            AscendC::Cast(vF, v, AscendC::RoundMode::CAST_NONE, len);
            Update(pF, mF, vF, pF, gF, mF, vF, len);
            AscendC::Cast(pOut, pF, AscendC::RoundMode::CAST_RINT, len);
            AscendC::Cast(mOut, mF, AscendC::RoundMode::CAST_RINT, len);
            AscendC::Cast(vOut, vF, AscendC::RoundMode::CAST_RINT, len);
        }
        outQueueParam.EnQue<T>(pOut);
        outQueueM.EnQue<T>(mOut);
        outQueueV.EnQue<T>(vOut);
        inQueueParam.FreeTensor(p);
        inQueueGrad.FreeTensor(g);
        inQueueM.FreeTensor(m);
        inQueueV.FreeTensor(v);
    }
    __aicore__ inline void CopyOut(uint64_t offset, uint32_t len)
    {
        Store(outQueueParam, paramOutGm, offset, len);
        Store(outQueueM, mOutGm, offset, len);
        Store(outQueueV, vOutGm, offset, len);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueParam, inQueueGrad, inQueueM, inQueueV;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueParam, outQueueM, outQueueV;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> tmpBuf, paramBuf, gradBuf, mBuf, vBuf;
    AscendC::GlobalTensor<T> paramGm, gradGm, mGm, vGm, paramOutGm, mOutGm, vOutGm;
    TilingT t;
    uint32_t blockLength = 0;
    uint32_t tileNum = 0;
};

extern "C" __global__ __aicore__ void adam_custom(GM_ADDR param, GM_ADDR grad, GM_ADDR m, GM_ADDR v,
                                                  GM_ADDR paramOut, GM_ADDR mOut, GM_ADDR vOut, GM_ADDR workspace,
                                                  GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelAdam<DTYPE_PARAM, decltype(tilingData)> op;
    op.Init(param, grad, m, v, paramOut, mOut, vOut, tilingData);
    op.Process();
}
