// Host side of ErfCustom: the operator definition and the tiling function.
#include "erf_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tuning_knobs.h"

namespace optiling {
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t FLOAT_SIZE = 4;
constexpr uint32_t TILE_ALIGN = 128;   // elements: whole 256 B repeats for 16-bit and 32-bit views
constexpr uint64_t RESERVED_UB = 1024;
constexpr uint32_t WORK_FLOATS = 3;  // float work rows per tile element (scratch of the math)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ErfTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    uint64_t totalLength = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = ge::GetSizeByDataType(dtype);
    if (typeSize == 0 || coreNum == 0 || totalLength == 0 || ubSize <= RESERVED_UB) {
        return ge::GRAPH_FAILED;
    }
    // Whole 32 B blocks are split across cores so every core starts on a block boundary; the
    // first formerNum cores take one block more, the last core stops at the tensor's end.
    // Split unit (tuning knob, tiling/tuning_knobs.h): 32 B balances the cores best, coarser
    // units start every core's bursts on a wider boundary.
    uint32_t splitBytes = static_cast<uint32_t>(
        tuning::Knob("split_unit_bytes", BLOCK_SIZE, {32, 64, 128, 256, 512}, tuning::Role::CoreSplit));
    uint64_t alignNum = splitBytes / typeSize;
    uint64_t totalBlocks = (totalLength + alignNum - 1) / alignNum;
    uint32_t usedCores = totalBlocks < coreNum ? static_cast<uint32_t>(totalBlocks) : coreNum;
    uint64_t blocksPerCore = totalBlocks / usedCores;
    uint32_t formerNum = static_cast<uint32_t>(totalBlocks % usedCores);

    // Buffers per queue (tuning knob): two overlap copy in, compute and copy out of
    // consecutive tiles; one gives tiles twice as long.
    uint32_t bufferNum = static_cast<uint32_t>(
        tuning::Knob("buffer_num", BUFFER_NUM, {1, 2}, tuning::Role::BufferCount));
    // UB per tile element: the input and output queues, a float copy when computed in float,
    // and the float work rows of the math.
    bool computeInFloat = typeSize != FLOAT_SIZE;
    uint64_t bytesPerElem = static_cast<uint64_t>(bufferNum) * 2 * typeSize +
                            (computeInFloat ? FLOAT_SIZE : 0) + static_cast<uint64_t>(WORK_FLOATS) * FLOAT_SIZE;
    uint64_t tileLength = (ubSize - RESERVED_UB) / bytesPerElem / TILE_ALIGN * TILE_ALIGN;
    // Longest tile in elements (tuning knob; 0: as long as UB allows).
    uint32_t tileCap = static_cast<uint32_t>(
        tuning::Knob("tile_cap", 0, {0, 1024, 2048, 4096, 8192, 16384}, tuning::Role::TileSize));
    if (tileCap != 0 && tileCap < tileLength) {
        tileLength = tileCap;
    }
    if (tileLength == 0) {
        return ge::GRAPH_FAILED;
    }

    tiling.set_totalLength(static_cast<uint32_t>(totalLength));
    tiling.set_formerNum(formerNum);
    tiling.set_formerLength(static_cast<uint32_t>((blocksPerCore + 1) * alignNum));
    tiling.set_tailLength(static_cast<uint32_t>(blocksPerCore * alignNum));
    tiling.set_tileLength(static_cast<uint32_t>(tileLength));
    tiling.set_bufferNum(bufferNum);
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class ErfCustom : public OpDef {
public:
    explicit ErfCustom(const char* name) : OpDef(name)
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
OP_ADD(ErfCustom);
}  // namespace ops
