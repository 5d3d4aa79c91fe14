// Kernel of BatchNormCustom (inference): y = x * scale[c] + shift[c] with
// scale = gamma / sqrt(var + eps) and shift = beta - mean * scale. x is N*C planes of
// `inner` elements; each core owns a contiguous run of planes. Scale and shift are computed
// on the vector unit for a window of up to 1024 channels (all of C when it fits, so once per
// core) and read per plane by the scalar unit. Planes travel several per tile (one
// DataCopyPad, 32 B plane pitch) or in chunks when longer than a tile; each plane is one
// Muls and one Adds. Queues are double-buffered; fp16/bf16 compute in float.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelBatchNorm {
    static constexpr bool COMPUTE_IN_FLOAT = !std::is_same_v<T, float>;

public:
    __aicore__ inline KernelBatchNorm() {}
    template <typename Tiling>
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR mean, GM_ADDR var, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                const Tiling& tiling)
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
        pitch = tiling.pitch;
        planesPerTile = tiling.planesPerTile;
        window = tiling.window;
        epsilon = tiling.epsilon;
        rawPitch = (window + 15) / 16 * 16;
        floatPitch = (window + 7) / 8 * 8;
        aligned = (inner * sizeof(T)) % 32 == 0;

        xGm.SetGlobalBuffer((__gm__ T*)x);
        yGm.SetGlobalBuffer((__gm__ T*)y);
        meanGm.SetGlobalBuffer((__gm__ T*)mean);
        varGm.SetGlobalBuffer((__gm__ T*)var);
        gammaGm.SetGlobalBuffer((__gm__ T*)gamma);
        betaGm.SetGlobalBuffer((__gm__ T*)beta);
        pipe.InitBuffer(inQueue, tiling.bufferNum, planesPerTile * pitch * sizeof(T));
        pipe.InitBuffer(outQueue, tiling.bufferNum, planesPerTile * pitch * sizeof(T));
        pipe.InitBuffer(paramQueue, 1, 4 * rawPitch * sizeof(T));
        pipe.InitBuffer(scaleBuf, floatPitch * sizeof(float));
        pipe.InitBuffer(shiftBuf, floatPitch * sizeof(float));
        pipe.InitBuffer(tmpBuf, floatPitch * sizeof(float));
        if constexpr (COMPUTE_IN_FLOAT) {
            pipe.InitBuffer(calcBuf, planesPerTile * pitch * sizeof(float));
        }
    }
    __aicore__ inline void Process()
    {
        if (blockPlanes == 0) {
            return;
        }
        if (chunk == inner) {
            for (uint32_t done = 0; done < blockPlanes; done += planesPerTile) {
                uint32_t n = blockPlanes - done < planesPerTile ? blockPlanes - done : planesPerTile;
                CopyIn(planeStart + done, n, 0, inner);
                Compute(planeStart + done, n, inner);
                CopyOut(planeStart + done, n, 0, inner);
            }
            return;
        }
        for (uint32_t p = 0; p < blockPlanes; p++) {
            for (uint32_t col = 0; col < inner; col += chunk) {
                uint32_t len = inner - col < chunk ? inner - col : chunk;
                CopyIn(planeStart + p, 1, col, len);
                Compute(planeStart + p, 1, len);
                CopyOut(planeStart + p, 1, col, len);
            }
        }
    }

private:
    // scale and shift of channels [c0, c0 + window) (or to C) into scaleBuf/shiftBuf.
    __aicore__ inline void LoadWindow(uint32_t c0)
    {
        uint32_t cw = channels - c0 < window ? channels - c0 : window;
        AscendC::LocalTensor<T> raw = paramQueue.AllocTensor<T>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(cw * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(raw, meanGm[c0], copyParams, padParams);
        AscendC::DataCopyPad(raw[rawPitch], varGm[c0], copyParams, padParams);
        AscendC::DataCopyPad(raw[2 * rawPitch], gammaGm[c0], copyParams, padParams);
        AscendC::DataCopyPad(raw[3 * rawPitch], betaGm[c0], copyParams, padParams);
        paramQueue.EnQue(raw);
        raw = paramQueue.DeQue<T>();
        AscendC::LocalTensor<float> scale = scaleBuf.Get<float>();
        AscendC::LocalTensor<float> shift = shiftBuf.Get<float>();
        AscendC::LocalTensor<float> tmp = tmpBuf.Get<float>();
        if constexpr (COMPUTE_IN_FLOAT) {
            AscendC::Cast(scale, raw[rawPitch], AscendC::RoundMode::CAST_NONE, cw);
            AscendC::Adds(scale, scale, epsilon, cw);
            AscendC::Sqrt(scale, scale, cw);
            AscendC::Cast(tmp, raw[2 * rawPitch], AscendC::RoundMode::CAST_NONE, cw);
            AscendC::Div(scale, tmp, scale, cw);  // gamma / sqrt(var + eps)
            AscendC::Cast(tmp, raw, AscendC::RoundMode::CAST_NONE, cw);
            AscendC::Mul(tmp, tmp, scale, cw);
            AscendC::Cast(shift, raw[3 * rawPitch], AscendC::RoundMode::CAST_NONE, cw);
            AscendC::Sub(shift, shift, tmp, cw);  // beta - mean * scale
        } else {
            AscendC::Adds(scale, raw[rawPitch], epsilon, cw);
            AscendC::Sqrt(scale, scale, cw);
            AscendC::Div(scale, raw[2 * rawPitch], scale, cw);
            AscendC::Mul(tmp, raw, scale, cw);
            AscendC::Sub(shift, raw[3 * rawPitch], tmp, cw);
        }
        paramQueue.FreeTensor(raw);
        // The scalar unit reads scale and shift only after the vector unit has written them.
        event_t eventId = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(eventId);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(eventId);
        windowStart = c0;
        windowEnd = c0 + cw;
    }
    __aicore__ inline void CopyIn(uint64_t plane, uint32_t n, uint32_t col, uint32_t len)
    {
        AscendC::LocalTensor<T> in = inQueue.AllocTensor<T>();
        uint64_t offset = plane * inner + col;
        if (aligned && len == inner) {
            AscendC::DataCopy(in, xGm[offset], n * inner);
        } else {
            AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(n), static_cast<uint32_t>(len * sizeof(T)), 0,
                                                  0, 0};
            AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
            AscendC::DataCopyPad(in, xGm[offset], copyParams, padParams);
        }
        inQueue.EnQue(in);
    }
    // dst = src * scale[c] + shift[c] per plane of the tile.
    __aicore__ inline void Normalise(const AscendC::LocalTensor<float>& dst, const AscendC::LocalTensor<float>& src,
                                     uint64_t plane, uint32_t n, uint32_t len)
    {
        AscendC::LocalTensor<float> scale = scaleBuf.Get<float>();
        AscendC::LocalTensor<float> shift = shiftBuf.Get<float>();
        uint32_t c = static_cast<uint32_t>(plane % channels);
        for (uint32_t i = 0; i < n; i++) {
            if (c < windowStart || c >= windowEnd) {
                LoadWindow(c);
            }
            float s = scale.GetValue(c - windowStart);
            float t = shift.GetValue(c - windowStart);
            AscendC::Muls(dst[i * pitch], src[i * pitch], s, len);
            AscendC::Adds(dst[i * pitch], dst[i * pitch], t, len);
            c = c + 1 == channels ? 0 : c + 1;
        }
    }
    __aicore__ inline void Compute(uint64_t plane, uint32_t n, uint32_t len)
    {
        AscendC::LocalTensor<T> in = inQueue.DeQue<T>();
        AscendC::LocalTensor<T> out = outQueue.AllocTensor<T>();
        if constexpr (COMPUTE_IN_FLOAT) {
            AscendC::LocalTensor<float> calc = calcBuf.Get<float>();
            uint32_t count = (n - 1) * pitch + len;
            AscendC::Cast(calc, in, AscendC::RoundMode::CAST_NONE, count);
            Normalise(calc, calc, plane, n, len);
            AscendC::Cast(out, calc, AscendC::RoundMode::CAST_RINT, count);
        } else {
            Normalise(out, in, plane, n, len);
        }
        outQueue.EnQue<T>(out);
        inQueue.FreeTensor(in);
    }
    __aicore__ inline void CopyOut(uint64_t plane, uint32_t n, uint32_t col, uint32_t len)
    {
        AscendC::LocalTensor<T> out = outQueue.DeQue<T>();
        uint64_t offset = plane * inner + col;
        if (aligned && len == inner) {
            AscendC::DataCopy(yGm[offset], out, n * inner);
        } else {
            AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(n), static_cast<uint32_t>(len * sizeof(T)), 0,
                                                  0, 0};
            AscendC::DataCopyPad(yGm[offset], out, copyParams);
        }
        outQueue.FreeTensor(out);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> paramQueue;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> scaleBuf, shiftBuf, tmpBuf, calcBuf;
    AscendC::GlobalTensor<T> xGm, yGm, meanGm, varGm, gammaGm, betaGm;
    uint64_t planeStart = 0;
    uint32_t blockPlanes = 0;
    uint32_t channels = 0;
    uint32_t inner = 0;
    uint32_t chunk = 0;
    uint32_t pitch = 0;
    uint32_t planesPerTile = 0;
    uint32_t window = 0;
    uint32_t rawPitch = 0;
    uint32_t floatPitch = 0;
    uint32_t windowStart = 0;
    uint32_t windowEnd = 0;  // empty until the first LoadWindow
    float epsilon = 0.0f;
    bool aligned = false;
};

extern "C" __global__ __aicore__ void batch_norm_custom(GM_ADDR x, GM_ADDR mean, GM_ADDR var, GM_ADDR gamma,
                                                        GM_ADDR beta, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelBatchNorm<DTYPE_X> op;
    op.Init(x, mean, var, gamma, beta, y, tilingData);
    op.Process();
}
