// Kernel of TopKCustom: the k largest values of every row of x (last axis) in descending order
// and their int32 indices, equal values in ascending index order. Each core owns a contiguous
// range of rows. One selection is a ReduceMax with index (the first maximum), the scalar unit
// reads value and index, writes them to the output tiles and overwrites the chosen element
// with -inf for the next selection. bf16 is widened to float (exact); fp16 and fp32 run
// natively.
//   Router rows (mode 2, at most 256 elements: MoE gates): up to 248 rows per tile, selected all
//   at once in float without the scalar unit: per selection one WholeReduceMax per 64-element
//   segment gives every row's (value, index), GatherMask splits them into per-selection columns
//   (segments combined with Compare/Select, the lower index winning ties), and the chosen
//   elements become -inf through Brcb of the indices, a strided Sub against a column-index
//   tile, Compares and Select. At the end one Gather per output, through a table built once
//   per core, turns the [k, rows] columns into [rows, k].
//   Short rows (mode 0): several rows per tile on a 32 B pitch (one DataCopyPad), k selections
//   per row in place; the next tile's copy is issued before this tile's selections.
//   Long rows (mode 1): the row streams through UB in chunks (double-buffered) and BlockReduceMax
//   keeps the maximum of every 32 B block of the whole row. The k blocks with the largest maxima
//   (ties: the lower block) hold the row's top k, since any element outside them is beaten by
//   those k maxima; they are sorted by position, fetched again from GM (one 32 B DataCopyPad
//   each, -inf past the row's end) and the k selections run over these k blocks only, so a
//   selection costs k * 32 B of reduction instead of the whole row.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t REPEAT_BYTES = 256;
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t MAX_K = 256;
constexpr uint32_t ROUTER_ROWS = 248;  // rows per router tile (a multiple of 8, at most 255 repeats)

template <typename T>
class KernelTopK {
    static constexpr bool IN_FLOAT = std::is_same_v<T, bfloat16_t>;
    using C = std::conditional_t<IN_FLOAT, float, T>;  // type the selections run on
    using IndexBits = std::conditional_t<sizeof(C) == 2, uint16_t, uint32_t>;
    static constexpr uint32_t BLOCK_C = BLOCK_BYTES / sizeof(C);  // row elements per block maximum
    static constexpr uint32_t SLOT = BLOCK_BYTES / sizeof(T);     // UB elements per fetched block
    static constexpr uint32_t LANES = REPEAT_BYTES / sizeof(C);

public:
    __aicore__ inline KernelTopK() {}
    template <typename Tiling>
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR values, GM_ADDR indices, const Tiling& tiling)
    {
        uint32_t blockIdx = AscendC::GetBlockIdx();
        if (blockIdx < tiling.formerNum) {
            blockRows = tiling.formerRows;
            rowStart = static_cast<uint64_t>(tiling.formerRows) * blockIdx;
        } else {
            blockRows = tiling.tailRows;
            rowStart = static_cast<uint64_t>(tiling.formerRows) * tiling.formerNum +
                       static_cast<uint64_t>(tiling.tailRows) * (blockIdx - tiling.formerNum);
        }
        cols = tiling.cols;
        k = tiling.k;
        mode = tiling.mode;
        pitch = tiling.pitch;
        rowsPerTile = tiling.rowsPerTile;
        chunkLen = tiling.chunkLen;
        blockNum = tiling.blockNum;
        negInfC = static_cast<C>(-__builtin_huge_valf());
        negInfC_f = -__builtin_huge_valf();
        negInfT = static_cast<T>(-__builtin_huge_valf());
        xGm.SetGlobalBuffer((__gm__ T*)x);
        valGm.SetGlobalBuffer((__gm__ T*)values);
        idxGm.SetGlobalBuffer((__gm__ int32_t*)indices);

        uint32_t outElems = 0;
        uint32_t reduceLen = 0;
        if (mode == 2) {
            uint32_t rowsPad = RowsPad();
            uint32_t tileFloats = (rowsPerTile * pitch + 63) / 64 * 64;
            pipe.InitBuffer(inQueue, BUFFER_NUM, rowsPerTile * pitch * sizeof(T));
            pipe.InitBuffer(calcBuf, tileFloats * sizeof(float));
            pipe.InitBuffer(colIdxBuf, tileFloats * sizeof(float));
            pipe.InitBuffer(diffBuf, tileFloats * sizeof(float));
            pipe.InitBuffer(bitsBuf, (tileFloats / 8 + 31) / 32 * 32);
            pipe.InitBuffer(pairBuf, rowsPad * 2 * sizeof(float));
            pipe.InitBuffer(spreadBuf, rowsPad * 8 * sizeof(float) + rowsPad * sizeof(float));
            pipe.InitBuffer(columnsBuf, 2 * k * rowsPad * sizeof(float));  // [values | indices], [k, rowsPad] each
            pipe.InitBuffer(tableBuf, (rowsPerTile * k * sizeof(uint32_t) + 31) / 32 * 32 + 2 * ((rowsPerTile * k * 4 + 31) / 32 * 32));
            if (pitch > 64) {
                pipe.InitBuffer(segBuf, 4 * rowsPad * sizeof(float) + rowsPad / 8 + 32);
            }
            outElems = rowsPerTile * k;
            reduceLen = 64;
        } else if (mode == 0) {
            pipe.InitBuffer(inQueue, BUFFER_NUM, rowsPerTile * pitch * sizeof(T));
            if constexpr (IN_FLOAT) {
                pipe.InitBuffer(calcBuf, rowsPerTile * pitch * sizeof(float));
            }
            outElems = rowsPerTile * k;
            reduceLen = pitch;
        } else {
            pipe.InitBuffer(inQueue, BUFFER_NUM, chunkLen * sizeof(T));
            if constexpr (IN_FLOAT) {
                uint32_t calcElems = chunkLen > k * SLOT ? chunkLen : k * SLOT;
                pipe.InitBuffer(calcBuf, calcElems * sizeof(float));
            }
            uint32_t chunkNum = (cols + chunkLen - 1) / chunkLen;
            pipe.InitBuffer(maxBuf, chunkNum * (chunkLen / BLOCK_C) * sizeof(C));
            pipe.InitBuffer(gatherQueue, 1, k * BLOCK_BYTES);
            outElems = k;
            reduceLen = blockNum > k * SLOT ? blockNum : k * SLOT;
        }
        pipe.InitBuffer(outValQueue, BUFFER_NUM, (outElems * sizeof(T) + BLOCK_BYTES - 1) / BLOCK_BYTES * BLOCK_BYTES);
        pipe.InitBuffer(outIdxQueue, BUFFER_NUM, (outElems * sizeof(int32_t) + BLOCK_BYTES - 1) / BLOCK_BYTES * BLOCK_BYTES);
        uint32_t repeats = (reduceLen * sizeof(C) + REPEAT_BYTES - 1) / REPEAT_BYTES;
        pipe.InitBuffer(workBuf, (2 * repeats * sizeof(C) + BLOCK_BYTES - 1) / BLOCK_BYTES * BLOCK_BYTES + BLOCK_BYTES);
        pipe.InitBuffer(resultBuf, BLOCK_BYTES);
    }
    __aicore__ inline void Process()
    {
        if (blockRows == 0) {
            return;
        }
        if (mode == 2) {
            ProcessRouterRows();
        } else if (mode == 0) {
            ProcessShortRows();
        } else {
            for (uint32_t r = 0; r < blockRows; r++) {
                ProcessLongRow(rowStart + r);
            }
        }
    }

private:
    // Rows of a router column: whole blocks, or whole 256 B repeats when Compare runs on them.
    __aicore__ inline uint32_t RowsPad() const
    {
        return pitch > 64 ? (rowsPerTile + 63) / 64 * 64 : (rowsPerTile + 7) / 8 * 8;
    }
    __aicore__ inline uint32_t TileRows(uint32_t t) const
    {
        return blockRows - t * rowsPerTile < rowsPerTile ? blockRows - t * rowsPerTile : rowsPerTile;
    }
    // Column index of every element of a router tile, as float, and the Gather table that
    // reads output (r, j) from the column layout: byte (j * rowsPad + r) * 4.
    __aicore__ inline void BuildRouterTables()
    {
        uint32_t rowsPad = RowsPad();
        AscendC::LocalTensor<float> colIdx = colIdxBuf.Get<float>();
        AscendC::LocalTensor<int32_t> colInt = diffBuf.Get<int32_t>();
        AscendC::CreateVecIndex(colInt, static_cast<int32_t>(0), pitch);
        AscendC::Cast(colIdx, colInt, AscendC::RoundMode::CAST_NONE, pitch);
        for (uint32_t r = 1; r < rowsPerTile; r *= 2) {
            uint32_t n = rowsPerTile - r < r ? rowsPerTile - r : r;
            AscendC::DataCopy(colIdx[r * pitch], colIdx, n * pitch);
        }
        uint32_t outs = rowsPerTile * k;
        AscendC::LocalTensor<uint8_t> raw = tableBuf.Get<uint8_t>();
        uint32_t tableBytes = (outs * 4 + 31) / 32 * 32;
        AscendC::LocalTensor<int32_t> table = raw.ReinterpretCast<int32_t>();
        AscendC::LocalTensor<int32_t> rowInt = raw[tableBytes].ReinterpretCast<int32_t>();
        AscendC::LocalTensor<float> tmp = raw[2 * tableBytes].ReinterpretCast<float>();
        AscendC::CreateVecIndex(table, static_cast<int32_t>(0), outs);       // q = r * k + j
        AscendC::Cast(tmp, table, AscendC::RoundMode::CAST_NONE, outs);
        AscendC::Adds(tmp, tmp, 0.5f, outs);
        AscendC::Muls(tmp, tmp, 1.0f / static_cast<float>(k), outs);
        AscendC::Cast(rowInt, tmp, AscendC::RoundMode::CAST_FLOOR, outs);    // r = q / k
        AscendC::Muls(table, table, static_cast<int32_t>(rowsPad * 4), outs);
        AscendC::Muls(rowInt, rowInt, static_cast<int32_t>(4 - static_cast<int32_t>(k * rowsPad * 4)), outs);
        AscendC::Add(table, table, rowInt, outs);                             // (q - r k) rowsPad 4 + r 4
    }
    // Rows of 65 to 256 elements: every 64-element segment's first maximum, then the first
    // segment with the largest one (a later segment replaces only when strictly larger, so the
    // lowest index wins ties). Value into `best`, index into `bestIndex` (int32) and, as float,
    // into `chosen`.
    __aicore__ inline void SelectSegments(const AscendC::LocalTensor<float>& f, const AscendC::LocalTensor<float>& best,
                                          const AscendC::LocalTensor<uint32_t>& bestIndex,
                                          const AscendC::LocalTensor<float>& chosen, uint32_t rows, uint8_t rowBlocks)
    {
        uint32_t rowsPad = RowsPad();
        uint32_t segments = (cols + 63) / 64;
        AscendC::LocalTensor<float> pairs = pairBuf.Get<float>();
        AscendC::LocalTensor<float> segVal = segBuf.Get<float>();
        AscendC::LocalTensor<float> segIdx = segVal[rowsPad];
        AscendC::LocalTensor<uint32_t> segBits = segVal[2 * rowsPad].template ReinterpretCast<uint32_t>();
        AscendC::LocalTensor<uint8_t> better = segVal[3 * rowsPad].template ReinterpretCast<uint8_t>();
        uint32_t count = (rows + 63) / 64 * 64;
        for (uint32_t q = 0; q < segments; q++) {
            int32_t lanes = static_cast<int32_t>(cols - q * 64 < 64 ? cols - q * 64 : 64);
            AscendC::WholeReduceMax(pairs, f[q * 64], lanes, static_cast<int32_t>(rows), 1, 1,
                                    static_cast<int32_t>(rowBlocks), AscendC::ReduceOrder::ORDER_VALUE_INDEX);
            uint64_t kept = 0;
            AscendC::GatherMask(q == 0 ? best : segVal, pairs, 1, true, 2 * rows, AscendC::GatherMaskParams(1, 1, 8, 0),
                                kept);
            AscendC::GatherMask(segBits, pairs.template ReinterpretCast<uint32_t>(), 2, true, 2 * rows,
                                AscendC::GatherMaskParams(1, 1, 8, 0), kept);
            AscendC::LocalTensor<float> idx = q == 0 ? chosen : segIdx;
            AscendC::Cast(idx, segBits.template ReinterpretCast<int32_t>(), AscendC::RoundMode::CAST_NONE, rows);
            if (q == 0) {
                continue;
            }
            AscendC::Adds(segIdx, segIdx, static_cast<float>(q * 64), rows);
            AscendC::Compare(better, segVal, best, AscendC::CMPMODE::GT, count);
            AscendC::Select(best, better, segVal, best, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, count);
            AscendC::Select(chosen, better, segIdx, chosen, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, count);
        }
        AscendC::Cast(bestIndex.template ReinterpretCast<int32_t>(), chosen, AscendC::RoundMode::CAST_RINT, rows);
    }
    __aicore__ inline void ProcessRouterRows()
    {
        BuildRouterTables();
        uint32_t rowsPad = RowsPad();
        uint32_t segments = (cols + 63) / 64;
        uint32_t tileNum = (blockRows + rowsPerTile - 1) / rowsPerTile;
        AscendC::LocalTensor<float> f = calcBuf.Get<float>();
        AscendC::LocalTensor<float> colIdx = colIdxBuf.Get<float>();
        AscendC::LocalTensor<float> diff = diffBuf.Get<float>();
        AscendC::LocalTensor<uint8_t> bits = bitsBuf.Get<uint8_t>();
        AscendC::LocalTensor<float> pairs = pairBuf.Get<float>();
        AscendC::LocalTensor<float> spread = spreadBuf.Get<float>();
        AscendC::LocalTensor<float> chosen = spread[rowsPad * 8];
        AscendC::LocalTensor<float> values = columnsBuf.Get<float>();
        AscendC::LocalTensor<uint32_t> indices = values[k * rowsPad].template ReinterpretCast<uint32_t>();
        AscendC::LocalTensor<uint32_t> table = tableBuf.Get<uint32_t>();
        uint8_t rowBlocks = static_cast<uint8_t>(pitch / 8);
        CopyInRows(0);
        for (uint32_t t = 0; t < tileNum; t++) {
            if (t + 1 < tileNum) {
                CopyInRows(t + 1);
            }
            uint32_t rows = TileRows(t);
            AscendC::LocalTensor<T> xLocal = inQueue.DeQue<T>();
            if constexpr (std::is_same_v<T, float>) {
                AscendC::DataCopy(f, xLocal, rows * pitch);
            } else {
                AscendC::Cast(f, xLocal, AscendC::RoundMode::CAST_NONE, rows * pitch);
            }
            inQueue.FreeTensor(xLocal);
            uint32_t count = (rows * pitch + 63) / 64 * 64;
            AscendC::BinaryRepeatParams perRow(1, 1, 0, rowBlocks, rowBlocks, 1);
            for (uint32_t j = 0; j < k; j++) {
                if (segments == 1) {
                    // Every row's first maximum: (value, index) pairs.
                    AscendC::WholeReduceMax(pairs, f, static_cast<int32_t>(cols), static_cast<int32_t>(rows), 1, 1,
                                            static_cast<int32_t>(rowBlocks), AscendC::ReduceOrder::ORDER_VALUE_INDEX);
                    uint64_t kept = 0;
                    AscendC::GatherMask(values[j * rowsPad], pairs, 1, true, 2 * rows,
                                        AscendC::GatherMaskParams(1, 1, 8, 0), kept);
                    AscendC::GatherMask(indices[j * rowsPad], pairs.template ReinterpretCast<uint32_t>(), 2, true,
                                        2 * rows, AscendC::GatherMaskParams(1, 1, 8, 0), kept);
                    if (j + 1 == k) {
                        break;
                    }
                    AscendC::Cast(chosen, indices[j * rowsPad].template ReinterpretCast<int32_t>(),
                                  AscendC::RoundMode::CAST_NONE, rows);
                } else {
                    SelectSegments(f, values[j * rowsPad], indices[j * rowsPad], chosen, rows, rowBlocks);
                    if (j + 1 == k) {
                        break;
                    }
                }
                // The chosen element of every row becomes -inf.
                AscendC::Brcb(spread, chosen, static_cast<uint8_t>((rows + 7) / 8), AscendC::BrcbRepeatParams(1, 8));
                for (uint32_t q = 0; q < segments; q++) {
                    uint64_t lanes = cols - q * 64 < 64 ? cols - q * 64 : 64;
                    AscendC::Sub(diff[q * 64], colIdx[q * 64], spread, lanes, static_cast<uint8_t>(rows), perRow);
                }
                AscendC::Compares(bits, diff, 0.0f, AscendC::CMPMODE::NE, count);
                AscendC::Select(f, bits, f, negInfC_f, AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, count);
            }
            // [k, rowsPad] columns -> [rows, k] outputs.
            AscendC::LocalTensor<T> outV = outValQueue.AllocTensor<T>();
            AscendC::LocalTensor<int32_t> outI = outIdxQueue.AllocTensor<int32_t>();
            uint32_t outs = rows * k;
            AscendC::Gather(outI.template ReinterpretCast<uint32_t>(), indices, table, 0, outs);
            if constexpr (std::is_same_v<T, float>) {
                AscendC::Gather(outV, values, table, 0, outs);
            } else {
                AscendC::Gather(diff, values, table, 0, outs);
                AscendC::Cast(outV, diff, AscendC::RoundMode::CAST_RINT, outs);
            }
            outValQueue.EnQue<T>(outV);
            outIdxQueue.EnQue<int32_t>(outI);
            outV = outValQueue.DeQue<T>();
            outI = outIdxQueue.DeQue<int32_t>();
            uint64_t row = rowStart + static_cast<uint64_t>(t) * rowsPerTile;
            AscendC::DataCopyExtParams valParams{1, static_cast<uint32_t>(outs * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPad(valGm[row * k], outV, valParams);
            AscendC::DataCopyExtParams idxParams{1, static_cast<uint32_t>(outs * sizeof(int32_t)), 0, 0, 0};
            AscendC::DataCopyPad(idxGm[row * k], outI, idxParams);
            outValQueue.FreeTensor(outV);
            outIdxQueue.FreeTensor(outI);
        }
    }
    __aicore__ inline void ProcessShortRows()
    {
        uint32_t tileNum = (blockRows + rowsPerTile - 1) / rowsPerTile;
        CopyInRows(0);
        for (uint32_t t = 0; t < tileNum; t++) {
            if (t + 1 < tileNum) {
                CopyInRows(t + 1);
            }
            uint32_t rows = TileRows(t);
            AscendC::LocalTensor<T> xLocal = inQueue.DeQue<T>();
            AscendC::LocalTensor<T> outV = outValQueue.AllocTensor<T>();
            AscendC::LocalTensor<int32_t> outI = outIdxQueue.AllocTensor<int32_t>();
            AscendC::LocalTensor<C> src = Widen(xLocal, rows * pitch);
            for (uint32_t r = 0; r < rows; r++) {
                SelectRow(src[r * pitch], cols, r * k, outV, outI);
            }
            inQueue.FreeTensor(xLocal);
            CopyOut(rowStart + static_cast<uint64_t>(t) * rowsPerTile, rows * k, outV, outI);
        }
    }
    __aicore__ inline void CopyInRows(uint32_t t)
    {
        AscendC::LocalTensor<T> xLocal = inQueue.AllocTensor<T>();
        uint32_t rows = TileRows(t);
        uint32_t rowBytes = cols * sizeof(T);
        uint32_t gapBlocks = (pitch * sizeof(T) - (rowBytes + BLOCK_BYTES - 1) / BLOCK_BYTES * BLOCK_BYTES) / BLOCK_BYTES;
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), rowBytes, 0, gapBlocks, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(xLocal, xGm[(rowStart + static_cast<uint64_t>(t) * rowsPerTile) * cols], copyParams,
                             padParams);
        inQueue.EnQue(xLocal);
    }
    // The k best of src[0, n) into outV/outI[outBase, outBase + k); src is consumed.
    __aicore__ inline void SelectRow(const AscendC::LocalTensor<C>& src, uint32_t n, uint32_t outBase,
                                     const AscendC::LocalTensor<T>& outV, const AscendC::LocalTensor<int32_t>& outI)
    {
        for (uint32_t j = 0; j < k; j++) {
            C value;
            uint32_t p = MaxOf(src, n, value);
            outV.SetValue(outBase + j, ToT(value));
            outI.SetValue(outBase + j, static_cast<int32_t>(p));
            if (j + 1 < k) {
                src.SetValue(p, negInfC);
                WaitScalarForVector();
            }
        }
    }
    __aicore__ inline void ProcessLongRow(uint64_t row)
    {
        uint64_t base = row * cols;
        uint32_t chunkNum = (cols + chunkLen - 1) / chunkLen;
        AscendC::LocalTensor<C> maxes = maxBuf.Get<C>();
        CopyInChunk(base, 0);
        for (uint32_t c = 0; c < chunkNum; c++) {
            if (c + 1 < chunkNum) {
                CopyInChunk(base, c + 1);
            }
            uint32_t len = ChunkElems(c);
            AscendC::LocalTensor<T> xLocal = inQueue.DeQue<T>();
            AscendC::LocalTensor<C> src = Widen(xLocal, (len + SLOT - 1) / SLOT * SLOT);
            int32_t repeats = static_cast<int32_t>((len * sizeof(C) + REPEAT_BYTES - 1) / REPEAT_BYTES);
            AscendC::BlockReduceMax(maxes[c * (chunkLen / BLOCK_C)], src, repeats, static_cast<int32_t>(LANES), 1, 1, 8);
            inQueue.FreeTensor(xLocal);
        }
        // The k blocks with the largest maxima, then in position order.
        uint32_t blocks[MAX_K];
        for (uint32_t j = 0; j < k; j++) {
            C value;
            uint32_t b = MaxOf(maxes, blockNum, value);
            maxes.SetValue(b, negInfC);
            WaitScalarForVector();
            uint32_t i = j;
            while (i > 0 && blocks[i - 1] > b) {
                blocks[i] = blocks[i - 1];
                i--;
            }
            blocks[i] = b;
        }
        AscendC::LocalTensor<T> gathered = gatherQueue.AllocTensor<T>();
        for (uint32_t j = 0; j < k; j++) {
            uint64_t start = static_cast<uint64_t>(blocks[j]) * BLOCK_C;
            uint32_t len = cols - start < BLOCK_C ? static_cast<uint32_t>(cols - start) : BLOCK_C;
            AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            AscendC::DataCopyPadExtParams<T> padParams{true, 0, static_cast<uint8_t>(SLOT - len), negInfT};
            AscendC::DataCopyPad(gathered[j * SLOT], xGm[base + start], copyParams, padParams);
        }
        gatherQueue.EnQue(gathered);
        gathered = gatherQueue.DeQue<T>();
        AscendC::LocalTensor<C> src = Widen(gathered, k * SLOT);
        AscendC::LocalTensor<T> outV = outValQueue.AllocTensor<T>();
        AscendC::LocalTensor<int32_t> outI = outIdxQueue.AllocTensor<int32_t>();
        for (uint32_t j = 0; j < k; j++) {
            C value;
            uint32_t p = MaxOf(src, k * SLOT, value);
            outV.SetValue(j, ToT(value));
            outI.SetValue(j, static_cast<int32_t>(blocks[p / SLOT] * BLOCK_C + p % SLOT));
            if (j + 1 < k) {
                src.SetValue(p, negInfC);
                WaitScalarForVector();
            }
        }
        gatherQueue.FreeTensor(gathered);
        CopyOut(row, k, outV, outI);
    }
    __aicore__ inline uint32_t ChunkElems(uint32_t c) const
    {
        uint32_t start = c * chunkLen;
        return cols - start < chunkLen ? cols - start : chunkLen;
    }
    __aicore__ inline void CopyInChunk(uint64_t base, uint32_t c)
    {
        AscendC::LocalTensor<T> xLocal = inQueue.AllocTensor<T>();
        uint32_t len = ChunkElems(c);
        uint32_t bytes = len * sizeof(T);
        uint32_t padElems = ((bytes + BLOCK_BYTES - 1) / BLOCK_BYTES * BLOCK_BYTES - bytes) / sizeof(T);
        AscendC::DataCopyExtParams copyParams{1, bytes, 0, 0, 0};
        AscendC::DataCopyPadExtParams<T> padParams{true, 0, static_cast<uint8_t>(padElems), negInfT};
        AscendC::DataCopyPad(xLocal, xGm[base + static_cast<uint64_t>(c) * chunkLen], copyParams, padParams);
        inQueue.EnQue(xLocal);
    }
    // src in the compute type: bf16 widened into calcBuf, the others as they are.
    __aicore__ inline AscendC::LocalTensor<C> Widen(const AscendC::LocalTensor<T>& src, uint32_t count)
    {
        if constexpr (IN_FLOAT) {
            AscendC::LocalTensor<float> calc = calcBuf.Get<float>();
            AscendC::Cast(calc, src, AscendC::RoundMode::CAST_NONE, count);
            return calc;
        } else {
            return src;
        }
    }
    __aicore__ inline T ToT(C value) const
    {
        if constexpr (IN_FLOAT) {
            return static_cast<T>(value);  // exact: the value came from bf16
        } else {
            return value;
        }
    }
    // Index of the first maximum of src[0, len); its value in `value`.
    __aicore__ inline uint32_t MaxOf(const AscendC::LocalTensor<C>& src, uint32_t len, C& value)
    {
        AscendC::LocalTensor<C> work = workBuf.Get<C>();
        AscendC::LocalTensor<C> result = resultBuf.Get<C>();
        AscendC::ReduceMax(result, src, work, static_cast<int32_t>(len), true);
        WaitVectorForScalar();
        value = result.GetValue(0);
        // The index comes back as the bits of the second result element.
        return static_cast<uint32_t>(result.template ReinterpretCast<IndexBits>().GetValue(1));
    }
    __aicore__ inline void CopyOut(uint64_t row, uint32_t count, AscendC::LocalTensor<T>& outV,
                                   AscendC::LocalTensor<int32_t>& outI)
    {
        WaitScalarForCopyOut();
        outValQueue.EnQue<T>(outV);
        outIdxQueue.EnQue<int32_t>(outI);
        outV = outValQueue.DeQue<T>();
        outI = outIdxQueue.DeQue<int32_t>();
        AscendC::DataCopyExtParams valParams{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
        AscendC::DataCopyPad(valGm[row * k], outV, valParams);
        AscendC::DataCopyExtParams idxParams{1, static_cast<uint32_t>(count * sizeof(int32_t)), 0, 0, 0};
        AscendC::DataCopyPad(idxGm[row * k], outI, idxParams);
        outValQueue.FreeTensor(outV);
        outIdxQueue.FreeTensor(outI);
    }
    // The scalar unit reads vector results only after the vector pipe has written them.
    __aicore__ inline void WaitVectorForScalar()
    {
        event_t eventId = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(eventId);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(eventId);
    }
    // The vector pipe reads a scalar-written element only after the write lands.
    __aicore__ inline void WaitScalarForVector()
    {
        event_t eventId = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::S_V));
        AscendC::SetFlag<AscendC::HardEvent::S_V>(eventId);
        AscendC::WaitFlag<AscendC::HardEvent::S_V>(eventId);
    }
    // The output copy reads scalar-written UB only after the scalar writes land.
    __aicore__ inline void WaitScalarForCopyOut()
    {
        event_t eventId = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::S_MTE3));
        AscendC::SetFlag<AscendC::HardEvent::S_MTE3>(eventId);
        AscendC::WaitFlag<AscendC::HardEvent::S_MTE3>(eventId);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> gatherQueue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outValQueue, outIdxQueue;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> calcBuf, maxBuf, workBuf, resultBuf;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> colIdxBuf, diffBuf, bitsBuf, pairBuf, spreadBuf, columnsBuf, tableBuf, segBuf;
    AscendC::GlobalTensor<T> xGm, valGm;
    AscendC::GlobalTensor<int32_t> idxGm;
    C negInfC;
    float negInfC_f;
    T negInfT;
    uint64_t rowStart = 0;
    uint32_t blockRows = 0;
    uint32_t cols = 0;
    uint32_t k = 0;
    uint32_t mode = 0;
    uint32_t pitch = 0;
    uint32_t rowsPerTile = 1;
    uint32_t chunkLen = 0;
    uint32_t blockNum = 0;
};

extern "C" __global__ __aicore__ void topk_custom(GM_ADDR x, GM_ADDR values, GM_ADDR indices, GM_ADDR workspace,
                                                  GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelTopK<DTYPE_X> op;
    op.Init(x, values, indices, tilingData);
    op.Process();
}
