// Kernel of InstanceNormCustom: every (n, c) plane of x [N, C, *] is normalised by its own
// mean and biased variance, then scaled by gamma[c] and shifted by beta[c]. Each core owns
// a contiguous run of planes. A plane that fits in UB is loaded once: ReduceSum gives the
// mean, the centred plane and ReduceSum of its squares the variance, then one Muls and one
// Adds. A longer plane is streamed twice in chunks: sums of x and x^2 first, then
// y = x * s + t. Queues are double-buffered and the next plane's (or chunk's) copy is issued
// before this one's math, so MTE2 runs while the vector and scalar units wait on each other's
// reductions; every dtype computes in float.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t FLOATS_PER_REPEAT = 64;

template <typename T>
class KernelInstanceNorm {
    static constexpr bool COMPUTE_IN_FLOAT = !std::is_same_v<T, float>;

public:
    __aicore__ inline KernelInstanceNorm() {}
    template <typename Tiling>
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, const Tiling& tiling)
    {
        uint32_t blockIdx = AscendC::GetBlockIdx();
        if (blockIdx < tiling.formerNum) {
            blockPlanes = tiling.formerPlanes;
            planeStart = static_cast<uint64_t>(tiling.formerPlanes) * blockIdx;
        } else {
            blockPlanes = tiling.tailPlanes;
            planeStart = static_cast<uint64_t>(tiling.formerPlanes) * tiling.formerNum +
                         static_cast<uint64_t>(tiling.tailPlanes) * (blockIdx - tiling.formerNum);
        }
        channels = tiling.channels;
        inner = tiling.inner;
        chunk = tiling.chunk;
        epsilon = tiling.epsilon;
        avgFactor = tiling.avgFactor;
        bufferNum = tiling.bufferNum;
        uint32_t tileElems = (chunk + FLOATS_PER_REPEAT - 1) / FLOATS_PER_REPEAT * FLOATS_PER_REPEAT;
        uint32_t repeats = tileElems / FLOATS_PER_REPEAT;

        xGm.SetGlobalBuffer((__gm__ T*)x);
        yGm.SetGlobalBuffer((__gm__ T*)y);
        gammaGm.SetGlobalBuffer((__gm__ T*)gamma);
        betaGm.SetGlobalBuffer((__gm__ T*)beta);
        pipe.InitBuffer(inQueue, tiling.bufferNum, tileElems * sizeof(T));
        pipe.InitBuffer(outQueue, tiling.bufferNum, tileElems * sizeof(T));
        pipe.InitBuffer(sqBuf, tileElems * sizeof(float));
        if constexpr (COMPUTE_IN_FLOAT) {
            pipe.InitBuffer(calcBuf, tileElems * sizeof(float));
        }
        pipe.InitBuffer(workBuf, (repeats + 7) / 8 * 32 + 32);
        pipe.InitBuffer(resultBuf, 64);
    }
    __aicore__ inline void Process()
    {
        // Whole planes: the next plane's copy is issued before this plane's statistics, whose
        // vector-to-scalar waits would otherwise hold it back (double-buffered input queue).
        bool prefetch = chunk == inner && bufferNum > 1;
        if (prefetch && blockPlanes > 0) {
            CopyIn(planeStart * inner, inner);
        }
        for (uint32_t i = 0; i < blockPlanes; i++) {
            uint64_t plane = planeStart + i;
            uint32_t c = static_cast<uint32_t>(plane % channels);
            float g = static_cast<float>(gammaGm.GetValue(c));
            float b = static_cast<float>(betaGm.GetValue(c));
            if (chunk == inner) {
                if (!prefetch) {
                    CopyIn(plane * inner, inner);
                } else if (i + 1 < blockPlanes) {
                    CopyIn((plane + 1) * inner, inner);
                }
                ComputeWhole(g, b);
                CopyOut(plane * inner, inner);
            } else {
                ProcessStreamed(plane * inner, g, b);
            }
        }
    }

private:
    __aicore__ inline void WaitVectorForScalar()
    {
        event_t eventId = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(eventId);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(eventId);
    }
    __aicore__ inline void CopyIn(uint64_t offset, uint32_t len)
    {
        AscendC::LocalTensor<T> in = inQueue.AllocTensor<T>();
        if ((len * sizeof(T)) % 32 == 0) {
            AscendC::DataCopy(in, xGm[offset], len);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
            AscendC::DataCopyPad(in, xGm[offset], copyParams, padParams);
        }
        inQueue.EnQue(in);
    }
    // The dequeued input as float: the input itself for fp32, else a widened copy.
    __aicore__ inline AscendC::LocalTensor<float> AsFloat(const AscendC::LocalTensor<T>& in, uint32_t len)
    {
        if constexpr (COMPUTE_IN_FLOAT) {
            AscendC::LocalTensor<float> calc = calcBuf.Get<float>();
            AscendC::Cast(calc, in, AscendC::RoundMode::CAST_NONE, len);
            return calc;
        } else {
            return in;
        }
    }
    // out = f * s + t, narrowed to T.
    __aicore__ inline void Apply(const AscendC::LocalTensor<T>& out, const AscendC::LocalTensor<float>& f, float s,
                                 float t, uint32_t len)
    {
        if constexpr (COMPUTE_IN_FLOAT) {
            AscendC::LocalTensor<float> calc = calcBuf.Get<float>();
            AscendC::Muls(calc, f, s, len);
            AscendC::Adds(calc, calc, t, len);
            AscendC::Cast(out, calc, AscendC::RoundMode::CAST_RINT, len);
        } else {
            AscendC::Muls(out, f, s, len);
            AscendC::Adds(out, out, t, len);
        }
    }
    // 1 / sqrt(res[0] * avgFactor + eps) on the vector unit, read by the scalar unit.
    __aicore__ inline float Rstd(const AscendC::LocalTensor<float>& res)
    {
        AscendC::Muls(res, res, avgFactor, 1);
        AscendC::Adds(res, res, epsilon, 1);
        AscendC::Rsqrt(res, res, 1);
        WaitVectorForScalar();
        return res.GetValue(0);
    }
    __aicore__ inline void ComputeWhole(float g, float b)
    {
        AscendC::LocalTensor<T> in = inQueue.DeQue<T>();
        AscendC::LocalTensor<T> out = outQueue.AllocTensor<T>();
        AscendC::LocalTensor<float> f = AsFloat(in, inner);
        AscendC::LocalTensor<float> centred = sqBuf.Get<float>();
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::LocalTensor<float> res = resultBuf.Get<float>();
        AscendC::ReduceSum(res, f, work, inner);
        WaitVectorForScalar();
        float mean = res.GetValue(0) * avgFactor;
        AscendC::Adds(centred, f, -mean, inner);
        AscendC::Mul(f, centred, centred, inner);  // f is free once centred
        AscendC::ReduceSum(res, f, work, inner);
        float s = Rstd(res) * g;
        Apply(out, centred, s, b, inner);
        outQueue.EnQue<T>(out);
        inQueue.FreeTensor(in);
    }
    __aicore__ inline void ProcessStreamed(uint64_t base, float g, float b)
    {
        AscendC::LocalTensor<float> sq = sqBuf.Get<float>();
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::LocalTensor<float> res = resultBuf.Get<float>();
        float sum = 0.0f;
        float sumSq = 0.0f;
        // Each pass issues the next chunk's copy before this chunk's math when the input queue
        // has two buffers.
        bool prefetch = bufferNum > 1;
        if (prefetch) {
            CopyIn(base, inner < chunk ? inner : chunk);
        }
        for (uint32_t col = 0; col < inner; col += chunk) {
            uint32_t len = inner - col < chunk ? inner - col : chunk;
            if (!prefetch) {
                CopyIn(base + col, len);
            } else if (col + chunk < inner) {
                CopyIn(base + col + chunk, inner - col - chunk < chunk ? inner - col - chunk : chunk);
            }
            AscendC::LocalTensor<T> in = inQueue.DeQue<T>();
            AscendC::LocalTensor<float> f = AsFloat(in, len);
            AscendC::ReduceSum(res, f, work, len);
            AscendC::Mul(sq, f, f, len);
            AscendC::ReduceSum(res[8], sq, work, len);
            inQueue.FreeTensor(in);
            WaitVectorForScalar();
            sum += res.GetValue(0);
            sumSq += res.GetValue(8);
        }
        float mean = sum * avgFactor;
        float var = sumSq * avgFactor - mean * mean;
        AscendC::Duplicate(res, var > 0.0f ? var : 0.0f, 8);
        AscendC::Adds(res, res, epsilon, 1);
        AscendC::Rsqrt(res, res, 1);
        WaitVectorForScalar();
        float s = res.GetValue(0) * g;
        float t = b - mean * s;
        if (prefetch) {
            CopyIn(base, inner < chunk ? inner : chunk);
        }
        for (uint32_t col = 0; col < inner; col += chunk) {
            uint32_t len = inner - col < chunk ? inner - col : chunk;
            if (!prefetch) {
                CopyIn(base + col, len);
            } else if (col + chunk < inner) {
                CopyIn(base + col + chunk, inner - col - chunk < chunk ? inner - col - chunk : chunk);
            }
            AscendC::LocalTensor<T> in = inQueue.DeQue<T>();
            AscendC::LocalTensor<T> out = outQueue.AllocTensor<T>();
            Apply(out, AsFloat(in, len), s, t, len);
            outQueue.EnQue<T>(out);
            inQueue.FreeTensor(in);
            CopyOut(base + col, len);
        }
    }
    __aicore__ inline void CopyOut(uint64_t offset, uint32_t len)
    {
        AscendC::LocalTensor<T> out = outQueue.DeQue<T>();
        if ((len * sizeof(T)) % 32 == 0) {
            AscendC::DataCopy(yGm[offset], out, len);
        } else {
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[offset], out, copyParams);
        }
        outQueue.FreeTensor(out);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> sqBuf, calcBuf, workBuf, resultBuf;
    AscendC::GlobalTensor<T> xGm, yGm, gammaGm, betaGm;
    uint64_t planeStart = 0;
    uint32_t blockPlanes = 0;
    uint32_t channels = 0;
    uint32_t inner = 0;
    uint32_t chunk = 0;
    float epsilon = 0.0f;
    float avgFactor = 0.0f;
    uint32_t bufferNum = 1;
};

extern "C" __global__ __aicore__ void instance_norm_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                           GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelInstanceNorm<DTYPE_X> op;
    op.Init(x, gamma, beta, y, tilingData);
    op.Process();
}
