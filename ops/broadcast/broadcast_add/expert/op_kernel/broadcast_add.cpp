// Kernel of BroadcastAddCustom (expert): y[r, c] = x[r, c] + bias[c] for x of shape [..., C] (rows r
// are all leading dimensions flattened) and bias of shape [C]. Each core owns a range of
// rows. Columns are walked in chunks that fit UB: the bias chunk is loaded once per chunk,
// then tiles of rows of that chunk stream through UB with double buffering. Rows are padded
// to a 32 B pitch in UB (DataCopyPad), so any C works. bfloat16 is added in float.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelBroadcastAdd {
    static constexpr bool COMPUTE_IN_FLOAT = std::is_same_v<T, bfloat16_t>;
    static constexpr uint32_t ALIGN_NUM = 32 / sizeof(T);
    static constexpr uint32_t REPEAT_NUM = 256 / sizeof(T);  // elements per vector repeat
    static constexpr uint32_t MAX_REPEAT = 255;              // repeatTime and repeat stride limit

public:
    __aicore__ inline KernelBroadcastAdd() {}
    template <typename Tiling>
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y, const Tiling& tiling)
    {
        uint32_t blockIdx = AscendC::GetBlockIdx();
        uint64_t rowOffset = 0;
        if (blockIdx < tiling.formerNum) {
            blockRows = tiling.formerRows;
            rowOffset = static_cast<uint64_t>(tiling.formerRows) * blockIdx;
        } else {
            blockRows = tiling.tailRows;
            rowOffset = static_cast<uint64_t>(tiling.formerRows) * tiling.formerNum +
                        static_cast<uint64_t>(tiling.tailRows) * (blockIdx - tiling.formerNum);
        }
        cols = tiling.cols;
        chunkCols = tiling.chunkCols;
        chunkAligned = AlignUp(chunkCols);
        rowsPerTile = tiling.rowsPerTile;

        xGm.SetGlobalBuffer((__gm__ T*)x + rowOffset * cols, static_cast<uint64_t>(blockRows) * cols);
        yGm.SetGlobalBuffer((__gm__ T*)y + rowOffset * cols, static_cast<uint64_t>(blockRows) * cols);
        biasGm.SetGlobalBuffer((__gm__ T*)bias, cols);
        // expert: with regionPad != 0, tile parity b's x and y fill the 64 KB UB bank region b
        // (the pad completes it) and the bias and float scratch sit in the third: a copy of one
        // tile never waits for a vector instruction on the other tile's banks.
        for (int32_t b = 0; b < BUFFER_NUM; b++) {
            pipe.InitBuffer(inQueueX[b], 1, rowsPerTile * chunkAligned * sizeof(T));
            pipe.InitBuffer(outQueueY[b], 1, rowsPerTile * chunkAligned * sizeof(T));
            if (tiling.regionPad != 0) {
                pipe.InitBuffer(regionPadBuf[b], tiling.regionPad);
            }
        }
        pipe.InitBuffer(inQueueBias, 1, chunkAligned * sizeof(T));
        if constexpr (COMPUTE_IN_FLOAT) {
            pipe.InitBuffer(rowFloatBuf, chunkAligned * sizeof(float));
            pipe.InitBuffer(biasFloatBuf, chunkAligned * sizeof(float));
        }
    }
    __aicore__ inline void Process()
    {
        if (blockRows == 0) {
            return;
        }
        uint32_t tileNum = (blockRows + rowsPerTile - 1) / rowsPerTile;
        uint32_t parity = 0;
        for (uint32_t col = 0; col < cols; col += chunkCols) {
            uint32_t len = cols - col < chunkCols ? cols - col : chunkCols;
            AscendC::LocalTensor<T> biasLocal = LoadBias(col, len);
            for (uint32_t t = 0; t < tileNum; t++) {
                uint32_t rows = t == tileNum - 1 ? blockRows - t * rowsPerTile : rowsPerTile;
                uint64_t offset = static_cast<uint64_t>(t) * rowsPerTile * cols + col;
                uint32_t b = parity;
                parity ^= 1;
                CopyIn(b, offset, rows, len);
                Compute(b, biasLocal, rows, len);
                CopyOut(b, offset, rows, len);
            }
            inQueueBias.FreeTensor(biasLocal);
        }
    }

private:
    __aicore__ inline static uint32_t AlignUp(uint32_t n) { return (n + ALIGN_NUM - 1) / ALIGN_NUM * ALIGN_NUM; }
    // A narrower last chunk still uses the full chunk pitch in UB: the gap in 32 B blocks.
    __aicore__ inline uint32_t PitchGapBlocks(uint32_t len) const
    {
        return (chunkAligned - AlignUp(len)) / ALIGN_NUM;
    }
    __aicore__ inline AscendC::LocalTensor<T> LoadBias(uint32_t col, uint32_t len)
    {
        AscendC::LocalTensor<T> biasLocal = inQueueBias.AllocTensor<T>();
        AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(biasLocal, biasGm[col], copyParams, padParams);
        inQueueBias.EnQue(biasLocal);
        biasLocal = inQueueBias.DeQue<T>();
        if constexpr (COMPUTE_IN_FLOAT) {
            AscendC::LocalTensor<float> biasFloat = biasFloatBuf.Get<float>();
            AscendC::Cast(biasFloat, biasLocal, AscendC::RoundMode::CAST_NONE, len);
        }
        return biasLocal;
    }
    // `rows` rows of `len` columns starting at GM element `offset`; each row lands on
    // its own 32 B-aligned pitch in UB, the rest of the GM row is skipped by the stride.
    __aicore__ inline void CopyIn(uint32_t b, uint64_t offset, uint32_t rows, uint32_t len)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX[b].AllocTensor<T>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(len * sizeof(T)),
                                              static_cast<uint32_t>((cols - len) * sizeof(T)), PitchGapBlocks(len), 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
        inQueueX[b].EnQue(xLocal);
    }
    __aicore__ inline void Compute(uint32_t b, const AscendC::LocalTensor<T>& biasLocal, uint32_t rows, uint32_t len)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX[b].DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueueY[b].AllocTensor<T>();
        uint32_t pitchBlocks = chunkAligned / ALIGN_NUM;
        uint32_t colRepeats = (len + REPEAT_NUM - 1) / REPEAT_NUM;
        if constexpr (!COMPUTE_IN_FLOAT) {
            if (pitchBlocks <= MAX_REPEAT && colRepeats < rows) {
                // expert: broadcast through repeat strides. One Add per 256 B column slice
                // covers up to 255 rows: the row pitch is the repeat stride of x and y and the
                // bias slice is re-read by every repeat (repeat stride 0), replacing one
                // instruction per row by one per column slice.
                AscendC::BinaryRepeatParams params{1, 1, 1, static_cast<uint8_t>(pitchBlocks),
                                                   static_cast<uint8_t>(pitchBlocks), 0};
                for (uint32_t r0 = 0; r0 < rows; r0 += MAX_REPEAT) {
                    uint32_t reps = rows - r0 < MAX_REPEAT ? rows - r0 : MAX_REPEAT;
                    for (uint32_t c = 0; c < len; c += REPEAT_NUM) {
                        uint64_t lanes = len - c < REPEAT_NUM ? len - c : REPEAT_NUM;
                        uint32_t at = r0 * chunkAligned + c;
                        AscendC::Add(yLocal[at], xLocal[at], biasLocal[c], lanes, static_cast<uint8_t>(reps), params);
                    }
                }
                outQueueY[b].EnQue<T>(yLocal);
                inQueueX[b].FreeTensor(xLocal);
                return;
            }
        }
        for (uint32_t r = 0; r < rows; r++) {
            uint32_t pitch = r * chunkAligned;
            if constexpr (COMPUTE_IN_FLOAT) {
                AscendC::LocalTensor<float> rowFloat = rowFloatBuf.Get<float>();
                AscendC::LocalTensor<float> biasFloat = biasFloatBuf.Get<float>();
                AscendC::Cast(rowFloat, xLocal[pitch], AscendC::RoundMode::CAST_NONE, len);
                AscendC::Add(rowFloat, rowFloat, biasFloat, len);
                AscendC::Cast(yLocal[pitch], rowFloat, AscendC::RoundMode::CAST_RINT, len);
            } else {
                AscendC::Add(yLocal[pitch], xLocal[pitch], biasLocal, len);
            }
        }
        outQueueY[b].EnQue<T>(yLocal);
        inQueueX[b].FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t b, uint64_t offset, uint32_t rows, uint32_t len)
    {
        AscendC::LocalTensor<T> yLocal = outQueueY[b].DeQue<T>();
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(len * sizeof(T)),
                                              PitchGapBlocks(len), static_cast<uint32_t>((cols - len) * sizeof(T)), 0};
        AscendC::DataCopyPad(yGm[offset], yLocal, copyParams);
        outQueueY[b].FreeTensor(yLocal);
    }

private:
    AscendC::TPipe pipe;
    // expert: one single-buffer queue per tile parity (double buffering by alternating them),
    // so each parity's buffers can be placed in a UB bank region of their own.
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueX[BUFFER_NUM];
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQueueBias;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueueY[BUFFER_NUM];
    AscendC::TBuf<AscendC::QuePosition::VECCALC> rowFloatBuf, biasFloatBuf, regionPadBuf[BUFFER_NUM];
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> biasGm;
    AscendC::GlobalTensor<T> yGm;
    uint32_t blockRows = 0;
    uint32_t cols = 0;
    uint32_t chunkCols = 0;
    uint32_t chunkAligned = 0;
    uint32_t rowsPerTile = 0;
};

extern "C" __global__ __aicore__ void broadcast_add_custom(GM_ADDR x, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace,
                                                           GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelBroadcastAdd<DTYPE_X> op;
    op.Init(x, bias, y, tilingData);
    op.Process();
}
