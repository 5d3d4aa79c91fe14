// Host side of FastGeluCustom: the operator definition and the tiling function.
#include "fast_gelu_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t TILE_ALIGN = 128;   // elements; keeps every tile a whole number of 256 B repeats
// Float tiles the kernel keeps in a calc buffer: none (FasterGelu keeps its own scratch)
constexpr uint32_t OP_WORK_TILES = 0;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    FastGeluTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    uint32_t totalLength = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    if (typeSize == 0 || coreNum == 0 || totalLength == 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t alignNum = BLOCK_SIZE / typeSize;
    uint32_t totalBlocks = (totalLength + alignNum - 1) / alignNum;
    uint32_t usedCores = totalBlocks < coreNum ? totalBlocks : coreNum;
    uint32_t blocksPerCore = totalBlocks / usedCores;
    uint32_t formerNum = totalBlocks % usedCores;

    // Per element of a tile: double-buffered x and y in the input dtype, the float work
    // tiles (16-bit inputs also need float copies of x and y), and the FasterGelu scratch,
    // about 3 floats per element (sized exactly below once the tile is known).
    uint32_t floatTiles = OP_WORK_TILES + (typeSize == sizeof(float) ? 0 : 2) + 3;
    uint64_t bytesPerElem = BUFFER_NUM * 2 * typeSize + floatTiles * sizeof(float);
    uint32_t tileLength = static_cast<uint32_t>(ubSize / bytesPerElem / TILE_ALIGN * TILE_ALIGN);
    if (tileLength == 0) {
        return ge::GRAPH_FAILED;  // not even one aligned tile fits in the UB budget
    }
    // Exact scratch of FasterGelu<float> on one tile; the estimate above keeps it inside UB.
    uint32_t maxTmp = 0;
    uint32_t minTmp = 0;
    AscendC::GetGeluMaxMinTmpSize(ge::Shape({static_cast<int64_t>(tileLength)}), sizeof(float), maxTmp, minTmp);
    uint64_t used = static_cast<uint64_t>(tileLength) * (BUFFER_NUM * 2 * typeSize +
                    (OP_WORK_TILES + (typeSize == sizeof(float) ? 0 : 2)) * sizeof(float)) + maxTmp;
    if (used > ubSize) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_tmpBytes(maxTmp);

    tiling.set_totalLength(totalLength);
    tiling.set_formerNum(formerNum);
    tiling.set_formerLength((blocksPerCore + 1) * alignNum);
    tiling.set_tailLength(blocksPerCore * alignNum);
    tiling.set_tileLength(tileLength);
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class FastGeluCustom : public OpDef {
public:
    explicit FastGeluCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(FastGeluCustom);
}  // namespace ops
