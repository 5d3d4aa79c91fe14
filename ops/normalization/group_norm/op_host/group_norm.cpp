// Host side of GroupNormCustom: the operator definition and the tiling function.
#include "group_norm_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t FLOAT_SIZE = 4;
constexpr uint32_t CHUNK_ALIGN = 64;         // elements: whole 256 B float repeats per chunk
constexpr uint32_t MAX_BLOCK_COUNT = 4095;   // DataCopyPad blockCount limit: rows per copy
constexpr uint64_t RESERVED_UB = 2048;       // reduction workspace, result blocks, allocator slack

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    GroupNormTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    const int64_t* numGroups = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    const float* epsilon = context->GetAttrs()->GetAttrPointer<float>(1);
    size_t dimNum = shape.GetDimNum();
    if (typeSize == 0 || coreNum == 0 || dimNum < 2 || numGroups == nullptr || epsilon == nullptr ||
        ubSize <= RESERVED_UB) {
        return ge::GRAPH_FAILED;
    }
    uint64_t batch = shape.GetDim(0);
    uint64_t channels = shape.GetDim(1);
    uint64_t rowLen = 1;
    for (size_t d = 2; d < dimNum; ++d) {
        rowLen *= shape.GetDim(d);
    }
    if (*numGroups <= 0 || channels % static_cast<uint64_t>(*numGroups) != 0) {
        return ge::GRAPH_FAILED;  // num_groups must divide C
    }
    uint64_t groups = batch * static_cast<uint64_t>(*numGroups);
    uint64_t channelsPerGroup = channels / static_cast<uint64_t>(*numGroups);
    uint32_t alignNum = BLOCK_SIZE / typeSize;

    // Per element of a tile: double-buffered input and output, a float work tile, and a
    // float copy of the input for 16-bit dtypes.
    uint64_t perElem = typeSize * BUFFER_NUM * 2 + FLOAT_SIZE + (typeSize == FLOAT_SIZE ? 0 : FLOAT_SIZE);
    uint64_t maxElems = (ubSize - RESERVED_UB) / perElem / CHUNK_ALIGN * CHUNK_ALIGN;
    uint64_t rowPitch = (rowLen + alignNum - 1) / alignNum * alignNum;
    uint64_t chunkLen = rowLen;
    uint64_t chunkPitch = rowPitch;
    uint64_t rowsPerTile = 1;
    if (rowPitch <= maxElems) {
        rowsPerTile = maxElems / rowPitch;
        rowsPerTile = rowsPerTile < MAX_BLOCK_COUNT ? rowsPerTile : MAX_BLOCK_COUNT;
        rowsPerTile = rowsPerTile < channelsPerGroup ? rowsPerTile : channelsPerGroup;
    } else {
        chunkLen = maxElems;
        chunkPitch = maxElems;
    }
    uint32_t usedCores = static_cast<uint32_t>(groups < coreNum ? groups : coreNum);

    tiling.set_rowLen(static_cast<uint32_t>(rowLen));
    tiling.set_channelsPerGroup(static_cast<uint32_t>(channelsPerGroup));
    tiling.set_numGroups(static_cast<uint32_t>(*numGroups));
    tiling.set_chunkLen(static_cast<uint32_t>(chunkLen));
    tiling.set_chunkPitch(static_cast<uint32_t>(chunkPitch));
    tiling.set_rowsPerTile(static_cast<uint32_t>(rowsPerTile));
    tiling.set_formerNum(static_cast<uint32_t>(groups % usedCores));
    tiling.set_formerGroups(static_cast<uint32_t>(groups / usedCores + (groups % usedCores > 0 ? 1 : 0)));
    tiling.set_tailGroups(static_cast<uint32_t>(groups / usedCores));
    tiling.set_invGroupSize(1.0f / static_cast<float>(channelsPerGroup * rowLen));
    tiling.set_epsilon(*epsilon);
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class GroupNormCustom : public OpDef {
public:
    explicit GroupNormCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("gamma")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("beta")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("num_groups").AttrType(OPTIONAL).Int(1);
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(GroupNormCustom);
}  // namespace ops
