// Kernel of CumsumCustom: y[r, c] = x[r, 0] + ... + x[r, c] over the last axis. Each core owns a
// contiguous range of rows and scans up to `lanes` of them side by side: a tile of lanes x chunk
// elements is copied in (one DataCopyPad, rows on a fixed pitch), transposed with one Gather so
// that each row becomes one float lane, scanned with one vector Add per column (the previous
// chunk's last column carried in; for fp32 compensated (Kahan) so that long rows of mixed signs
// keep the accuracy of a float result), transposed back with another Gather and copied out. The
// byte-offset tables of both Gathers are built once per core with CreateVecIndex/Muls/Adds. Queues
// are double-buffered; every dtype accumulates in float. Few long rows (one lane group on at
// most half the cores) are split into column segments, one per core: each core scans its
// segment once for the rows' segment totals (written to the workspace), and after SyncAll scans
// it again starting from the sum of the earlier segments' totals, writing y.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelCumsum {
    static constexpr bool COMPUTE_IN_FLOAT = !std::is_same_v<T, float>;

public:
    __aicore__ inline KernelCumsum() {}
    template <typename Tiling>
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, const Tiling& tiling)
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
        lanes = tiling.lanes;
        segs = tiling.segs;
        colStart = 0;
        colEnd = tiling.cols;
        if (segs > 1) {
            seg = blockIdx;
            rowStart = 0;
            blockRows = tiling.tailRows;
            colStart = seg * tiling.segLen;
            colEnd = colStart + tiling.segLen < cols ? colStart + tiling.segLen : cols;
            wsGm.SetGlobalBuffer((__gm__ float*)workspace, static_cast<uint64_t>(segs) * lanes);
        }
        chunk = tiling.chunk;
        pitch = tiling.pitch;
        tile = lanes * pitch;
        xGm.SetGlobalBuffer((__gm__ T*)x);
        yGm.SetGlobalBuffer((__gm__ T*)y);
        pipe.InitBuffer(inQueue, tiling.bufferNum, tile * sizeof(T));
        pipe.InitBuffer(outQueue, tiling.bufferNum, tile * sizeof(T));
        pipe.InitBuffer(transBuf, tile * sizeof(float));
        pipe.InitBuffer(forwardBuf, tile * sizeof(uint32_t));
        pipe.InitBuffer(backwardBuf, tile * sizeof(uint32_t));
        pipe.InitBuffer(carryBuf, 3 * lanes * sizeof(float));  // [carried sum | compensation | term]
        if constexpr (COMPUTE_IN_FLOAT) {
            pipe.InitBuffer(floatBuf, 2 * tile * sizeof(float));
        }
        if (segs > 1) {
            pipe.InitBuffer(offsetBuf, lanes * sizeof(float));
            pipe.InitBuffer(totalsQueue, 1, (seg > 0 ? seg : 1) * lanes * sizeof(float));
        }
    }
    __aicore__ inline void Process()
    {
        if (blockRows == 0) {
            return;
        }
        BuildTables();
        if (segs > 1) {
            ProcessSegment();
            return;
        }
        for (uint32_t done = 0; done < blockRows; done += lanes) {
            uint32_t rows = blockRows - done < lanes ? blockRows - done : lanes;
            uint64_t row = rowStart + done;
            for (uint32_t col = 0; col < cols; col += chunk) {
                uint32_t len = cols - col < chunk ? cols - col : chunk;
                CopyIn(row, rows, col, len);
                Compute(rows, col, len, true);
                CopyOut(row, rows, col, len);
            }
        }
    }

private:
    // Few rows split into column segments: this core's segment totals, SyncAll, then the scan
    // of the segment from the earlier segments' totals.
    __aicore__ inline void ProcessSegment()
    {
        uint32_t rows = blockRows;
        if (seg + 1 < segs) {
            for (uint32_t col = colStart; col < colEnd; col += chunk) {
                uint32_t len = colEnd - col < chunk ? colEnd - col : chunk;
                CopyIn(0, rows, col, len);
                Compute(rows, col, len, false);
            }
            AscendC::LocalTensor<float> carry = carryBuf.Get<float>();
            Wait<AscendC::HardEvent::V_MTE3>();
            AscendC::DataCopy(wsGm[static_cast<uint64_t>(seg) * lanes], carry, lanes);
        }
        AscendC::SyncAll();
        AscendC::LocalTensor<float> offset = offsetBuf.Get<float>();
        AscendC::Duplicate(offset, 0.0f, lanes);
        if (seg > 0) {
            AscendC::LocalTensor<float> totals = totalsQueue.AllocTensor<float>();
            AscendC::DataCopy(totals, wsGm, seg * lanes);
            totalsQueue.EnQue(totals);
            totals = totalsQueue.DeQue<float>();
            for (uint32_t s = 0; s < seg; s++) {
                AscendC::Add(offset, offset, totals[s * lanes], lanes);
            }
            totalsQueue.FreeTensor(totals);
        }
        useOffset = true;
        for (uint32_t col = colStart; col < colEnd; col += chunk) {
            uint32_t len = colEnd - col < chunk ? colEnd - col : chunk;
            CopyIn(0, rows, col, len);
            Compute(rows, col, len, true);
            CopyOut(0, rows, col, len);
        }
    }
    template <AscendC::HardEvent E>
    __aicore__ inline void Wait()
    {
        event_t eventId = static_cast<event_t>(pipe.FetchEventID(E));
        AscendC::SetFlag<E>(eventId);
        AscendC::WaitFlag<E>(eventId);
    }

    // forward[j * lanes + r] = bytes of element (r, j) in a [lanes, pitch] float tile;
    // backward[r * pitch + j] = bytes of element (j, r) in the transposed [pitch, lanes] tile.
    __aicore__ inline void BuildTables()
    {
        AscendC::LocalTensor<int32_t> fwd = forwardBuf.Get<int32_t>();
        AscendC::LocalTensor<int32_t> bwd = backwardBuf.Get<int32_t>();
        AscendC::LocalTensor<int32_t> base = transBuf.Get<int32_t>();
        AscendC::CreateVecIndex(base, static_cast<int32_t>(0), lanes);
        AscendC::Muls(base, base, static_cast<int32_t>(pitch * sizeof(float)), lanes);
        for (uint32_t j = 0; j < pitch; j++) {
            AscendC::Adds(fwd[j * lanes], base, static_cast<int32_t>(j * sizeof(float)), lanes);
        }
        AscendC::CreateVecIndex(base, static_cast<int32_t>(0), pitch);
        AscendC::Muls(base, base, static_cast<int32_t>(lanes * sizeof(float)), pitch);
        for (uint32_t r = 0; r < lanes; r++) {
            AscendC::Adds(bwd[r * pitch], base, static_cast<int32_t>(r * sizeof(float)), pitch);
        }
    }
    __aicore__ inline void CopyIn(uint64_t row, uint32_t rows, uint32_t col, uint32_t len)
    {
        AscendC::LocalTensor<T> in = inQueue.AllocTensor<T>();
        constexpr uint32_t alignNum = 32 / sizeof(T);
        uint32_t gapBlocks = (pitch - (len + alignNum - 1) / alignNum * alignNum) / alignNum;
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(len * sizeof(T)),
                                              static_cast<uint32_t>((cols - len) * sizeof(T)), gapBlocks, 0};
        AscendC::DataCopyPadExtParams<T> padParams{false, 0, 0, 0};
        AscendC::DataCopyPad(in, xGm[row * cols + col], copyParams, padParams);
        inQueue.EnQue(in);
    }
    // Scans a tile; `write` false keeps only the carried sums (a segment's totals).
    __aicore__ inline void Compute(uint32_t rows, uint32_t col, uint32_t len, bool write)
    {
        AscendC::LocalTensor<T> in = inQueue.DeQue<T>();
        AscendC::LocalTensor<T> out;
        if (write) {
            out = outQueue.AllocTensor<T>();
        }
        AscendC::LocalTensor<float> trans = transBuf.Get<float>();
        AscendC::LocalTensor<float> carry = carryBuf.Get<float>();
        AscendC::LocalTensor<uint32_t> fwd = forwardBuf.Get<uint32_t>();
        AscendC::LocalTensor<uint32_t> bwd = backwardBuf.Get<uint32_t>();
        AscendC::LocalTensor<float> src;
        AscendC::LocalTensor<float> dst;
        if constexpr (COMPUTE_IN_FLOAT) {
            AscendC::LocalTensor<float> f = floatBuf.Get<float>();
            src = f;
            dst = f[tile];
            AscendC::Cast(src, in, AscendC::RoundMode::CAST_NONE, rows * pitch);
        } else {
            src = in;
            dst = out;
        }
        // Lanes past `rows` hold stale data; they are scanned but never written out.
        AscendC::Gather(trans, src, fwd, 0, len * lanes);
        AscendC::LocalTensor<float> comp = carry[lanes];     // running compensation per lane
        AscendC::LocalTensor<float> term = carry[2 * lanes];
        if (col == colStart) {
            AscendC::Duplicate(carry, 0.0f, 2 * lanes);
            if (useOffset) {
                AscendC::Add(carry, carry, offsetBuf.Get<float>(), lanes);
            }
        }
        if constexpr (COMPUTE_IN_FLOAT) {
            // 16-bit results: plain float sums are far more accurate than the output.
            for (uint32_t j = 0; j < len; j++) {
                AscendC::Add(trans[j * lanes], trans[j * lanes], j == 0 ? carry : trans[(j - 1) * lanes], lanes);
            }
        } else {
            // sum_j = sum_{j-1} + (x_j - comp); comp = (sum_j - sum_{j-1}) - (x_j - comp).
            for (uint32_t j = 0; j < len; j++) {
                AscendC::LocalTensor<float> prev = j == 0 ? carry : trans[(j - 1) * lanes];
                AscendC::LocalTensor<float> cur = trans[j * lanes];
                AscendC::Sub(term, cur, comp, lanes);
                AscendC::Add(cur, prev, term, lanes);
                AscendC::Sub(comp, cur, prev, lanes);
                AscendC::Sub(comp, comp, term, lanes);
            }
        }
        AscendC::Adds(carry, trans[(len - 1) * lanes], 0.0f, lanes);
        if (!write) {
            inQueue.FreeTensor(in);
            return;
        }
        AscendC::Gather(dst, trans, bwd, 0, rows * pitch);
        if constexpr (COMPUTE_IN_FLOAT) {
            AscendC::Cast(out, dst, AscendC::RoundMode::CAST_RINT, rows * pitch);
        }
        outQueue.EnQue<T>(out);
        inQueue.FreeTensor(in);
    }
    __aicore__ inline void CopyOut(uint64_t row, uint32_t rows, uint32_t col, uint32_t len)
    {
        AscendC::LocalTensor<T> out = outQueue.DeQue<T>();
        constexpr uint32_t alignNum = 32 / sizeof(T);
        uint32_t gapBlocks = (pitch - (len + alignNum - 1) / alignNum * alignNum) / alignNum;
        AscendC::DataCopyExtParams copyParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(len * sizeof(T)),
                                              gapBlocks, static_cast<uint32_t>((cols - len) * sizeof(T)), 0};
        AscendC::DataCopyPad(yGm[row * cols + col], out, copyParams);
        outQueue.FreeTensor(out);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> transBuf, forwardBuf, backwardBuf, carryBuf, floatBuf, offsetBuf;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> totalsQueue;
    AscendC::GlobalTensor<T> xGm, yGm;
    AscendC::GlobalTensor<float> wsGm;
    uint32_t segs = 1;
    uint32_t seg = 0;
    uint32_t colStart = 0;
    uint32_t colEnd = 0;
    bool useOffset = false;
    uint64_t rowStart = 0;
    uint32_t blockRows = 0;
    uint32_t cols = 0;
    uint32_t lanes = 0;
    uint32_t chunk = 0;
    uint32_t pitch = 0;
    uint32_t tile = 0;
};

extern "C" __global__ __aicore__ void cumsum_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelCumsum<DTYPE_X> op;
    op.Init(x, y, AscendC::GetUserWorkspace(workspace), tilingData);
    op.Process();
}
