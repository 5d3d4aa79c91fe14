// Host side of RmsNormCustom (expert): the operator definition and the tiling function.
#include "rms_norm_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <cmath>

namespace optiling {
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t FLOAT_SIZE = 4;
constexpr uint32_t MAX_REPEAT = 255;    // vector repeat stride limit in 32 B blocks
constexpr uint32_t PART_FLOATS = 64;    // one float repeat of partial sums per row
constexpr uint32_t ROWS_PER_OP = 248;   // rows per strided op in the kernel
// Launch cost of one more core in cycles (~0.03 us at 1.85 GHz: each further block starts
// that much later, the per-block launch step of the calibrated 910B model) and the
// single-core cost per element (~6 float vector passes at 64 lanes per cycle).
constexpr double LAUNCH_CYCLES_PER_CORE = 55.0;
constexpr double CYCLES_PER_ELEM = 0.1;
constexpr uint32_t MIN_TILES_PER_CORE = 4;  // the next tile's copy overlaps this tile's math
constexpr uint64_t UB_REGION = 65536;       // UB bank id changes every 64 KB
constexpr uint32_t STRIDED_MAX_COLS = 256;  // longest row computed by the strided path

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    RmsNormTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    const float* epsilon = context->GetAttrs()->GetAttrPointer<float>(0);
    size_t dimNum = shape.GetDimNum();
    if (typeSize == 0 || coreNum == 0 || dimNum == 0 || epsilon == nullptr) {
        return ge::GRAPH_FAILED;
    }
    uint32_t cols = shape.GetDim(dimNum - 1);
    uint32_t rows = shape.GetShapeSize() / cols;
    uint32_t alignNum = BLOCK_SIZE / typeSize;
    uint32_t colsAligned = (cols + alignNum - 1) / alignNum * alignNum;

    // expert: core count from the amount of work. W cycles of single-core work over k cores
    // cost W / k + k * launch, best at k = sqrt(W / launch).
    double work = static_cast<double>(rows) * cols * CYCLES_PER_ELEM;
    uint32_t wantCores = static_cast<uint32_t>(std::ceil(std::sqrt(work / LAUNCH_CYCLES_PER_CORE)));
    wantCores = wantCores == 0 ? 1 : (wantCores < coreNum ? wantCores : coreNum);
    uint32_t floatPitchBlocks = colsAligned * FLOAT_SIZE / BLOCK_SIZE;
    uint32_t usedCores = rows < wantCores ? rows : wantCores;
    // Same rows per core with as few cores as that takes (the last core is not left short).
    uint32_t perCore = (rows + usedCores - 1) / usedCores;
    usedCores = (rows + perCore - 1) / perCore;
    uint32_t formerNum = rows % usedCores;
    uint32_t tailRows = rows / usedCores;
    uint32_t formerRows = tailRows + (formerNum > 0 ? 1 : 0);

    // Fixed: gamma as loaded and as float, a float row of squares, a float row to compute
    // half/bf16 in, the reduction workspace (one float per 64-float repeat) and one result block.
    uint32_t floatRows = typeSize == FLOAT_SIZE ? 2 : 3;
    uint64_t workBytes = ((colsAligned + 63) / 64 + 7) / 8 * BLOCK_SIZE;
    uint64_t fixedBytes = static_cast<uint64_t>(colsAligned) * (typeSize + FLOAT_SIZE * floatRows) + workBytes +
                          BLOCK_SIZE + BLOCK_SIZE;
    // Per row: double-buffered input and output.
    uint64_t tileRowBytes = static_cast<uint64_t>(colsAligned) * typeSize * 2;  // input + output
    uint64_t rowBytes = tileRowBytes * BUFFER_NUM;
    if (fixedBytes + rowBytes > ubSize) {
        return ge::GRAPH_FAILED;  // one row does not fit in UB
    }
    uint32_t rowsPerTile = static_cast<uint32_t>((ubSize - fixedBytes) / rowBytes);
    // expert: UB banks are 64 KB regions, and a copy waits while a vector instruction works
    // on its banks. When gamma and the scratch fit one region, each tile's input and output
    // get a region of their own (the kernel pads up to it), so the copies of one tile run
    // beside the math of the other.
    bool regionLayout = false;
    if (fixedBytes <= UB_REGION && tileRowBytes <= UB_REGION && ubSize >= 3 * UB_REGION) {
        rowsPerTile = static_cast<uint32_t>(UB_REGION / tileRowBytes);
        regionLayout = true;
    }
    // expert: several tiles per core, so the next tile's copy-in and this tile's copy-out
    // overlap the math.
    uint32_t overlapRows = (formerRows + MIN_TILES_PER_CORE - 1) / MIN_TILES_PER_CORE;
    rowsPerTile = overlapRows < rowsPerTile ? overlapRows : rowsPerTile;
    rowsPerTile = rowsPerTile > 4095 ? 4095 : rowsPerTile;  // DataCopyPad blockCount limit
    rowsPerTile = rowsPerTile == 0 ? 1 : rowsPerTile;
    // expert: rows whose float pitch is a legal repeat stride go through strided vector ops
    // a tile at a time. Fixed: gamma and its float copy, two float partial-sum blocks of
    // ROWS_PER_OP rows, the per-row statistics and their broadcast blocks. Per row:
    // double-buffered input and output and a float copy (16-bit inputs).
    uint32_t vecRows = 0;
    uint64_t vecFixed = static_cast<uint64_t>(colsAligned) * (typeSize + FLOAT_SIZE) +
                        ROWS_PER_OP * (2 * PART_FLOATS * FLOAT_SIZE + FLOAT_SIZE + BLOCK_SIZE) + 8 * BLOCK_SIZE;
    uint64_t vecRowBytes = static_cast<uint64_t>(colsAligned) * (typeSize * BUFFER_NUM * 2 +
                           (typeSize == FLOAT_SIZE ? 0 : FLOAT_SIZE));
    if (cols <= STRIDED_MAX_COLS && floatPitchBlocks <= MAX_REPEAT && vecFixed + vecRowBytes <= ubSize) {
        vecRows = 1;
        rowsPerTile = static_cast<uint32_t>((ubSize - vecFixed) / vecRowBytes);
        uint32_t overlapRows = (formerRows + MIN_TILES_PER_CORE - 1) / MIN_TILES_PER_CORE;
        rowsPerTile = overlapRows < rowsPerTile ? overlapRows : rowsPerTile;
        rowsPerTile = rowsPerTile > 4095 ? 4095 : rowsPerTile;  // DataCopyPad blockCount limit
        regionLayout = false;
    }
    uint32_t padBytes = 0;
    if (regionLayout) {
        padBytes = static_cast<uint32_t>(UB_REGION - static_cast<uint64_t>(rowsPerTile) * tileRowBytes);
    }
    tiling.set_padBytes(padBytes);

    tiling.set_cols(cols);
    tiling.set_colsAligned(colsAligned);
    tiling.set_formerNum(formerNum);
    tiling.set_formerRows(formerRows);
    tiling.set_tailRows(tailRows);
    tiling.set_rowsPerTile(rowsPerTile);
    tiling.set_epsilon(*epsilon);
    tiling.set_avgFactor(1.0f / static_cast<float>(cols));
    tiling.set_vecRows(vecRows);
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class RmsNormCustom : public OpDef {
public:
    explicit RmsNormCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("gamma")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-6);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(RmsNormCustom);
}  // namespace ops
