// Kernel of AdamCustom (expert): one Adam step,
//   m' = beta1 m + (1 - beta1) g,  v' = beta2 v + (1 - beta2) g^2,
//   param' = param - lr / (1 - beta1^t) * m' / (sqrt(v') / sqrt(1 - beta2^t) + eps).
// Each core streams its slice of the flattened tensors through UB with double buffering;
// half and bf16 are widened to float for the update, as the small (1 - beta) terms and the
// square root lose too much in 16 bits.
// The step needs no scratch tile: g^2 and the denominator go into g's (dead) tile, and in
// float the parameter step into param's output tile; for 16-bit types the last scaled add
// is one Axpy into the float param (the baseline's Muls into a temporary and Add are two
// passes). The UB the scratch took lengthens the tiles.
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
        // Shares are whole 512 B units; the last core stops at the end of the tensor.
        if (offset + this->blockLength > tiling.totalLength) {
            this->blockLength = tiling.totalLength - offset;
        }
        this->tileNum = (this->blockLength + tiling.tileLength - 1) / tiling.tileLength;

        paramGm.SetGlobalBuffer((__gm__ T*)param + offset, this->blockLength);
        gradGm.SetGlobalBuffer((__gm__ T*)grad + offset, this->blockLength);
        mGm.SetGlobalBuffer((__gm__ T*)m + offset, this->blockLength);
        vGm.SetGlobalBuffer((__gm__ T*)v + offset, this->blockLength);
        // The four inputs are read exactly once (the step writes new tensors): their lines
        // need not displace the outputs in L2.
        paramGm.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
        gradGm.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
        mGm.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
        vGm.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
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
        if constexpr (!std::is_same_v<T, float>) {
            uint32_t floatBytes = tiling.tileLength * sizeof(float);
            pipe.InitBuffer(paramBuf, floatBytes);
            pipe.InitBuffer(gradBuf, floatBytes);
            pipe.InitBuffer(mBuf, floatBytes);
            pipe.InitBuffer(vBuf, floatBytes);
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
        Load(inQueueM, mGm, offset, len);
        Load(inQueueV, vGm, offset, len);
    }
    __aicore__ inline void Compute(uint32_t progress)
    {
        uint32_t len = TileElems(progress);
        AscendC::LocalTensor<T> p = inQueueParam.DeQue<T>();
        AscendC::LocalTensor<T> g = inQueueGrad.DeQue<T>();
        AscendC::LocalTensor<T> m = inQueueM.DeQue<T>();
        AscendC::LocalTensor<T> v = inQueueV.DeQue<T>();
        AscendC::LocalTensor<T> pOut = outQueueParam.AllocTensor<T>();
        AscendC::LocalTensor<T> mOut = outQueueM.AllocTensor<T>();
        AscendC::LocalTensor<T> vOut = outQueueV.AllocTensor<T>();
        if constexpr (std::is_same_v<T, float>) {
            AscendC::Muls(mOut, m, t.beta1, len);
            AscendC::Axpy(mOut, g, t.oneMinusBeta1, len);
            AscendC::Mul(g, g, g, len);
            AscendC::Muls(vOut, v, t.beta2, len);
            AscendC::Axpy(vOut, g, t.oneMinusBeta2, len);
            // The step, built in param's output tile: param + negStep * m' / (sqrt(v') * c + eps).
            AscendC::Sqrt(pOut, vOut, len);
            AscendC::Muls(pOut, pOut, t.invSqrtBias2, len);
            AscendC::Adds(pOut, pOut, t.eps, len);
            AscendC::Div(pOut, mOut, pOut, len);
            AscendC::Muls(pOut, pOut, t.negStepSize, len);
            AscendC::Add(pOut, pOut, p, len);
        } else {
            AscendC::LocalTensor<float> pF = paramBuf.Get<float>();
            AscendC::LocalTensor<float> gF = gradBuf.Get<float>();
            AscendC::LocalTensor<float> mF = mBuf.Get<float>();
            AscendC::LocalTensor<float> vF = vBuf.Get<float>();
            AscendC::Cast(pF, p, AscendC::RoundMode::CAST_NONE, len);
            AscendC::Cast(gF, g, AscendC::RoundMode::CAST_NONE, len);
            AscendC::Cast(mF, m, AscendC::RoundMode::CAST_NONE, len);
            AscendC::Cast(vF, v, AscendC::RoundMode::CAST_NONE, len);
            AscendC::Muls(mF, mF, t.beta1, len);
            AscendC::Axpy(mF, gF, t.oneMinusBeta1, len);
            AscendC::Cast(mOut, mF, AscendC::RoundMode::CAST_RINT, len);
            AscendC::Mul(gF, gF, gF, len);
            AscendC::Muls(vF, vF, t.beta2, len);
            AscendC::Axpy(vF, gF, t.oneMinusBeta2, len);
            AscendC::Cast(vOut, vF, AscendC::RoundMode::CAST_RINT, len);
            // m' / (sqrt(v') * c + eps) in g's float tile, then param' = param + negStep * that
            // in one Axpy.
            AscendC::Sqrt(gF, vF, len);
            AscendC::Muls(gF, gF, t.invSqrtBias2, len);
            AscendC::Adds(gF, gF, t.eps, len);
            AscendC::Div(gF, mF, gF, len);
            AscendC::Axpy(pF, gF, t.negStepSize, len);
            AscendC::Cast(pOut, pF, AscendC::RoundMode::CAST_RINT, len);
        }
        outQueueParam.EnQue<T>(pOut);
        outQueueM.EnQue<T>(mOut);
        outQueueV.EnQue<T>(vOut);
        inQueueParam.FreeTensor(p);
        inQueueGrad.FreeTensor(g);
        inQueueM.FreeTensor(m);
        inQueueV.FreeTensor(v);
    }
    __aicore__ inline void CopyOut(uint32_t progress)
    {
        uint64_t offset = static_cast<uint64_t>(progress) * t.tileLength;
        uint32_t len = TileElems(progress);
        Store(outQueueParam, paramOutGm, offset, len);
        Store(outQueueM, mOutGm, offset, len);
        Store(outQueueV, vOutGm, offset, len);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueParam, inQueueGrad, inQueueM, inQueueV;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueParam, outQueueM, outQueueV;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> paramBuf, gradBuf, mBuf, vBuf;
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
