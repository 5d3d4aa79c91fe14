// Host side of AbsCustom: the operator definition and the tiling function.
#include "abs_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tuning_knobs.h"

namespace optiling {
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t INPUT_NUM = 1;
constexpr uint32_t TILE_ALIGN = 128;  // elements: whole 256 B repeats for 16-bit and 32-bit views

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    AbsTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    uint32_t totalLength = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = ge::GetSizeByDataType(dtype);
    if (typeSize == 0 || coreNum == 0 || totalLength == 0) {
        return ge::GRAPH_FAILED;
    }
    // Split whole 32 B blocks across cores so every core starts on a block boundary;
    // the first `formerNum` cores take one block more. The kernel cuts the last
    // core's share at the end of the tensor.
    // Core split unit (tuning knob, tiling/tuning_knobs.h): whole 32 B blocks balance the
    // cores best; coarser units (up to 512 B) start every core's bursts 512 B aligned.
    uint32_t splitBytes = static_cast<uint32_t>(
        tuning::Knob("split_unit_bytes", BLOCK_SIZE, {32, 64, 128, 256, 512}, tuning::Role::CoreSplit));
    uint32_t alignNum = splitBytes / typeSize;
    uint32_t totalBlocks = (totalLength + alignNum - 1) / alignNum;
    uint32_t usedCores = totalBlocks < coreNum ? totalBlocks : coreNum;
    uint32_t blocksPerCore = totalBlocks / usedCores;
    uint32_t formerNum = totalBlocks % usedCores;

    // UB per element of a tile: double-buffered queues for every input and the output,
    // plus float copies of the inputs when the kernel computes in float (bfloat16 is computed in float (the vector unit has no bf16 arithmetic); float16 natively).
    // Buffers per queue (tuning knob): two let copy-in, compute and copy-out of consecutive
    // tiles overlap; one gives tiles twice as long. The kernel initialises its queues with it.
    uint32_t bufferNum = static_cast<uint32_t>(
        tuning::Knob("buffer_num", BUFFER_NUM, {1, 2}, tuning::Role::BufferCount));
    bool computeInFloat = dtype == ge::DT_BF16;
    uint64_t bytesPerElem = static_cast<uint64_t>(bufferNum) * (INPUT_NUM + 1) * typeSize;
    if (computeInFloat) {
        bytesPerElem += INPUT_NUM * sizeof(float);
    }
    uint32_t tileLength = static_cast<uint32_t>(ubSize / bytesPerElem / TILE_ALIGN * TILE_ALIGN);
    // Longest tile in elements (tuning knob; 0: as long as UB allows). Shorter tiles start
    // the copy/compute overlap sooner, longer ones pay fewer per-iteration costs.
    uint32_t tileCap = static_cast<uint32_t>(
        tuning::Knob("tile_cap", 0, {0, 1024, 2048, 4096, 8192, 16384}, tuning::Role::TileSize));
    if (tileCap != 0 && tileCap < tileLength) {
        tileLength = tileCap / TILE_ALIGN * TILE_ALIGN;
    }
    if (tileLength == 0) {
        return ge::GRAPH_FAILED;  // not even one aligned tile fits in the UB budget
    }

    tiling.set_totalLength(totalLength);
    tiling.set_formerNum(formerNum);
    tiling.set_formerLength((blocksPerCore + 1) * alignNum);
    tiling.set_tailLength(blocksPerCore * alignNum);
    tiling.set_tileLength(tileLength);
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
class AbsCustom : public OpDef {
public:
    explicit AbsCustom(const char* name) : OpDef(name)
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
OP_ADD(AbsCustom);
}  // namespace ops
