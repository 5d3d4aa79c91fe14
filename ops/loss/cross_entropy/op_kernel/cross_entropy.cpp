// Kernel of CrossEntropyCustom: loss[n] = logsumexp(logits[n, :]) - logits[n, target[n]],
// computed stably as ln(sum(exp(x - max))) + max - x[target]; kept per row ("none"),
// summed ("sum") or averaged over the counted rows ("mean"). Rows whose target is
// ignore_index or outside [0, C) give 0 and are not counted. Each core owns a range of
// rows; tiles of rows stream through UB with double buffering (32 B row pitch through
// DataCopyPad), their targets beside them. Every dtype is computed in float. For the
// reductions each core writes [loss sum, counted rows] to its own 32 B workspace slot
// and, after SyncAll, core 0 combines the slots into the scalar.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t REDUCE_NONE = 0;
constexpr uint32_t REDUCE_MEAN = 1;
constexpr uint32_t BLOCK_FLOATS = 8;   // one 32 B block of float
constexpr uint32_t MIN_WORK_FLOATS = 128;

template <typename T, typename TI>
class KernelCrossEntropy {
    static constexpr bool IS_FLOAT = std::is_same_v<T, float>;

public:
    __aicore__ inline KernelCrossEntropy() {}
    template <typename Tiling>
    __aicore__ inline void Init(GM_ADDR logits, GM_ADDR target, GM_ADDR loss, GM_ADDR workspace, const Tiling& t)
    {
        blockIdx = AscendC::GetBlockIdx();
        uint64_t rowOffset = 0;
        if (blockIdx < t.formerNum) {
            blockRows = t.formerRows;
            rowOffset = static_cast<uint64_t>(t.formerRows) * blockIdx;
        } else {
            blockRows = t.tailRows;
            rowOffset = static_cast<uint64_t>(t.formerRows) * t.formerNum +
                        static_cast<uint64_t>(t.tailRows) * (blockIdx - t.formerNum);
        }
        classes = t.classes;
        classesAligned = t.classesAligned;
        rowsPerTile = t.rowsPerTile;
        tileNum = (blockRows + rowsPerTile - 1) / rowsPerTile;
        usedCores = t.usedCores;
        reduction = t.reduction;
        ignoreIndex = t.ignoreIndex;

        logitsGm.SetGlobalBuffer((__gm__ T*)logits + rowOffset * classes, static_cast<uint64_t>(blockRows) * classes);
        targetGm.SetGlobalBuffer((__gm__ TI*)target + rowOffset, blockRows);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, rowsPerTile * classesAligned * sizeof(T));
        pipe.InitBuffer(inQueueTarget, BUFFER_NUM, AlignBytes(rowsPerTile * sizeof(TI)));
        pipe.InitBuffer(lossBuf, AlignBytes(rowsPerTile * sizeof(float)));
        if constexpr (!IS_FLOAT) {
            pipe.InitBuffer(calcBuf, classesAligned * sizeof(float));
        }
        pipe.InitBuffer(expBuf, classesAligned * sizeof(float));
        uint32_t workFloats = classesAligned > MIN_WORK_FLOATS ? classesAligned : MIN_WORK_FLOATS;
        pipe.InitBuffer(workBuf, workFloats * sizeof(float));
        pipe.InitBuffer(resultBuf, BLOCK_FLOATS * sizeof(float));
        if (reduction == REDUCE_NONE) {
            lossGm.SetGlobalBuffer((__gm__ T*)loss + rowOffset, blockRows);
            pipe.InitBuffer(outQueueLoss, BUFFER_NUM, AlignBytes(rowsPerTile * sizeof(T)));
        } else {
            lossGm.SetGlobalBuffer((__gm__ T*)loss, 1);
            wsGm.SetGlobalBuffer((__gm__ float*)workspace, static_cast<uint64_t>(usedCores) * BLOCK_FLOATS);
            pipe.InitBuffer(accBuf, BLOCK_FLOATS * sizeof(float));
            pipe.InitBuffer(outQueuePart, 1, BLOCK_FLOATS * sizeof(float));
            pipe.InitBuffer(inQueuePart, 1, usedCores * BLOCK_FLOATS * sizeof(float));
            pipe.InitBuffer(outQueueLoss, 1, 32);
        }
    }
    __aicore__ inline void Process()
    {
        if (reduction != REDUCE_NONE) {
            AscendC::Duplicate(accBuf.Get<float>(), 0.0f, BLOCK_FLOATS);
        }
        for (uint32_t i = 0; i < tileNum; i++) {
            uint32_t rows = i == tileNum - 1 ? blockRows - i * rowsPerTile : rowsPerTile;
            CopyIn(i, rows);
            Compute(rows);
            if (reduction == REDUCE_NONE) {
                CopyOut(i, rows);
            }
        }
        if (reduction != REDUCE_NONE) {
            WritePartial();
            // Every core's partial is in the workspace before core 0 combines them.
            AscendC::SyncAll();
            if (blockIdx == 0) {
                FinalReduce();
            }
        }
    }

private:
    __aicore__ inline static uint32_t AlignBytes(uint32_t bytes) { return (bytes + 31) / 32 * 32; }
    __aicore__ inline void CopyIn(uint32_t progress, uint32_t rows)
    {
        uint64_t firstRow = static_cast<uint64_t>(progress) * rowsPerTile;
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(classes * sizeof(T)),
                                              0, 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(xLocal, logitsGm[firstRow * classes], copyParams, padParams);
        inQueueX.EnQue(xLocal);
        AscendC::LocalTensor<TI> tLocal = inQueueTarget.AllocTensor<TI>();
        AscendC::DataCopyExtParams targetParams{1, static_cast<uint32_t>(rows * sizeof(TI)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<TI> targetPad{false, 0, 0, 0};
        AscendC::DataCopyPad(tLocal, targetGm[firstRow], targetParams, targetPad);
        inQueueTarget.EnQue(tLocal);
    }
    // Loss of one float row given its target class (or 0 when the row is not counted).
    __aicore__ inline float RowLoss(const AscendC::LocalTensor<float>& src, int64_t target)
    {
        AscendC::LocalTensor<float> expRow = expBuf.Get<float>();
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::LocalTensor<float> result = resultBuf.Get<float>();
        AscendC::ReduceMax(result, src, work, classes);
        WaitFlag<AscendC::HardEvent::V_S>();
        float rowMax = result.GetValue(0);
        float picked = src.GetValue(static_cast<uint32_t>(target));
        AscendC::Adds(expRow, src, -rowMax, classes);
        AscendC::Exp(expRow, expRow, classes);
        AscendC::ReduceSum(result, expRow, work, classes);
        AscendC::Ln(result, result, 1);
        WaitFlag<AscendC::HardEvent::V_S>();
        return result.GetValue(0) + (rowMax - picked);
    }
    __aicore__ inline void Compute(uint32_t rows)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<TI> tLocal = inQueueTarget.DeQue<TI>();
        // The queue orders the copy before the vector pipe only; targets are read by the scalar unit.
        WaitFlag<AscendC::HardEvent::MTE2_S>();
        AscendC::LocalTensor<float> lossLocal = lossBuf.Get<float>();
        for (uint32_t r = 0; r < rows; r++) {
            int64_t target = static_cast<int64_t>(tLocal.GetValue(r));
            float loss = 0.0f;
            if (target != ignoreIndex && target >= 0 && target < static_cast<int64_t>(classes)) {
                if constexpr (IS_FLOAT) {
                    loss = RowLoss(xLocal[r * classesAligned], target);
                } else {
                    AscendC::LocalTensor<float> calc = calcBuf.Get<float>();
                    AscendC::Cast(calc, xLocal[r * classesAligned], AscendC::RoundMode::CAST_NONE, classes);
                    loss = RowLoss(calc, target);
                }
                counted++;
            }
            lossLocal.SetValue(r, loss);
        }
        inQueueTarget.FreeTensor(tLocal);
        inQueueX.FreeTensor(xLocal);
        // The vector pipe reads the losses only after the scalar writes land.
        WaitFlag<AscendC::HardEvent::S_V>();
        if (reduction == REDUCE_NONE) {
            AscendC::LocalTensor<T> out = outQueueLoss.AllocTensor<T>();
            if constexpr (IS_FLOAT) {
                AscendC::Adds(out, lossLocal, 0.0f, rows);
            } else {
                AscendC::Cast(out, lossLocal, AscendC::RoundMode::CAST_RINT, rows);
            }
            outQueueLoss.EnQue<T>(out);
        } else {
            AscendC::LocalTensor<float> result = resultBuf.Get<float>();
            AscendC::LocalTensor<float> acc = accBuf.Get<float>();
            AscendC::ReduceSum(result, lossLocal, workBuf.Get<float>(), rows);
            AscendC::Add(acc, acc, result, 1);
        }
    }
    __aicore__ inline void CopyOut(uint32_t progress, uint32_t rows)
    {
        AscendC::LocalTensor<T> out = outQueueLoss.DeQue<T>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(rows * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPad(lossGm[static_cast<uint64_t>(progress) * rowsPerTile], out, copyParams);
        outQueueLoss.FreeTensor(out);
    }
    // [loss sum, counted rows, 0 ...] to this core's workspace slot.
    __aicore__ inline void WritePartial()
    {
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        WaitFlag<AscendC::HardEvent::V_S>();
        acc.SetValue(1, static_cast<float>(counted));
        WaitFlag<AscendC::HardEvent::S_V>();
        AscendC::LocalTensor<float> part = outQueuePart.AllocTensor<float>();
        AscendC::Adds(part, acc, 0.0f, BLOCK_FLOATS);
        outQueuePart.EnQue(part);
        part = outQueuePart.DeQue<float>();
        AscendC::DataCopy(wsGm[static_cast<uint64_t>(blockIdx) * BLOCK_FLOATS], part, BLOCK_FLOATS);
        outQueuePart.FreeTensor(part);
    }
    __aicore__ inline void FinalReduce()
    {
        AscendC::LocalTensor<float> parts = inQueuePart.AllocTensor<float>();
        AscendC::DataCopy(parts, wsGm, usedCores * BLOCK_FLOATS);
        inQueuePart.EnQue(parts);
        parts = inQueuePart.DeQue<float>();
        WaitFlag<AscendC::HardEvent::MTE2_S>();
        float sum = 0.0f;
        float count = 0.0f;
        for (uint32_t c = 0; c < usedCores; c++) {
            sum += parts.GetValue(c * BLOCK_FLOATS);
            count += parts.GetValue(c * BLOCK_FLOATS + 1);
        }
        inQueuePart.FreeTensor(parts);
        AscendC::LocalTensor<float> result = resultBuf.Get<float>();
        // No counted row makes the mean 0/0 = NaN, as in PyTorch.
        result.SetValue(0, reduction == REDUCE_MEAN ? sum / count : sum);
        WaitFlag<AscendC::HardEvent::S_V>();
        AscendC::LocalTensor<T> out = outQueueLoss.AllocTensor<T>();
        if constexpr (IS_FLOAT) {
            AscendC::Adds(out, result, 0.0f, 1);
        } else {
            AscendC::Cast(out, result, AscendC::RoundMode::CAST_RINT, 1);
        }
        outQueueLoss.EnQue<T>(out);
        out = outQueueLoss.DeQue<T>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPad(lossGm, out, copyParams);
        outQueueLoss.FreeTensor(out);
    }
    template <AscendC::HardEvent EVENT>
    __aicore__ inline void WaitFlag()
    {
        event_t eventId = static_cast<event_t>(pipe.FetchEventID(EVENT));
        AscendC::SetFlag<EVENT>(eventId);
        AscendC::WaitFlag<EVENT>(eventId);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueTarget;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueLoss;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueuePart;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueuePart;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> lossBuf, calcBuf, expBuf, workBuf, resultBuf, accBuf;
    AscendC::GlobalTensor<T> logitsGm, lossGm;
    AscendC::GlobalTensor<TI> targetGm;
    AscendC::GlobalTensor<float> wsGm;
    uint32_t blockIdx = 0;
    uint32_t blockRows = 0;
    uint32_t classes = 0;
    uint32_t classesAligned = 0;
    uint32_t rowsPerTile = 0;
    uint32_t tileNum = 0;
    uint32_t usedCores = 0;
    uint32_t reduction = 0;
    uint32_t counted = 0;
    int64_t ignoreIndex = -100;
};

extern "C" __global__ __aicore__ void cross_entropy_custom(GM_ADDR logits, GM_ADDR target, GM_ADDR loss,
                                                           GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelCrossEntropy<DTYPE_LOGITS, DTYPE_TARGET> op;
    op.Init(logits, target, loss, AscendC::GetUserWorkspace(workspace), tilingData);
    op.Process();
}
