// Host side of InstanceNormCustom: the operator definition and the tiling function.
#include "instance_norm_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tuning_knobs.h"

namespace optiling {
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t FLOAT_SIZE = 4;
constexpr uint32_t FLOATS_PER_REPEAT = 64;
constexpr uint64_t RESERVED_UB = 2048;        // result blocks and allocator slack

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    InstanceNormTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    const gert::Shape& shape = context->GetInputShape(0)->GetOriginShape();
    uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    const float* epsilon = context->GetAttrs()->GetAttrPointer<float>(0);
    if (typeSize == 0 || coreNum == 0 || shape.GetDimNum() < 2 || epsilon == nullptr || ubSize <= RESERVED_UB) {
        return ge::GRAPH_FAILED;
    }
    uint64_t channels = shape.GetDim(1);
    uint64_t inner = 1;
    for (size_t d = 2; d < shape.GetDimNum(); ++d) {
        inner *= shape.GetDim(d);
    }
    if (channels == 0 || inner == 0 ||
        context->GetInputShape(1)->GetOriginShape().GetShapeSize() != static_cast<int64_t>(channels) ||
        context->GetInputShape(2)->GetOriginShape().GetShapeSize() != static_cast<int64_t>(channels)) {
        return ge::GRAPH_FAILED;
    }
    uint64_t planes = shape.GetShapeSize() / inner;
    uint32_t usedCores = planes < coreNum ? static_cast<uint32_t>(planes) : coreNum;
    uint32_t tailPlanes = static_cast<uint32_t>(planes / usedCores);
    uint32_t formerNum = static_cast<uint32_t>(planes % usedCores);

    // Buffers per queue (tuning knob, tiling/tuning_knobs.h): two overlap copy in, compute
    // and copy out; one lets larger planes stay whole in UB.
    uint32_t bufferNum = static_cast<uint32_t>(
        tuning::Knob("buffer_num", BUFFER_NUM, {1, 2}, tuning::Role::BufferCount));
    // Per element of a tile: the input and output queues, a float copy, a float row of
    // squares and ReduceSum's work (one float per repeat).
    uint64_t budget = ubSize - RESERVED_UB;
    uint64_t perElem = static_cast<uint64_t>(typeSize) * 2 * bufferNum + 2 * FLOAT_SIZE + 1;
    uint64_t alignNum = BLOCK_SIZE / typeSize;
    uint64_t innerAligned = (inner + FLOATS_PER_REPEAT - 1) / FLOATS_PER_REPEAT * FLOATS_PER_REPEAT;
    uint64_t chunk = inner;
    if (innerAligned * perElem > budget) {
        // Streamed planes: chunks of whole float repeats (tuning knob caps the chunk).
        chunk = budget / perElem / FLOATS_PER_REPEAT * FLOATS_PER_REPEAT;
        uint32_t chunkCap = static_cast<uint32_t>(
            tuning::Knob("chunk_cap", 0, {0, 2048, 4096, 8192}, tuning::Role::TileSize));
        if (chunkCap != 0 && chunkCap < chunk) {
            chunk = chunkCap;
        }
    }
    if (chunk == 0 || chunk % alignNum != 0 && chunk != inner) {
        return ge::GRAPH_FAILED;
    }

    tiling.set_channels(static_cast<uint32_t>(channels));
    tiling.set_inner(static_cast<uint32_t>(inner));
    tiling.set_chunk(static_cast<uint32_t>(chunk));
    tiling.set_formerNum(formerNum);
    tiling.set_formerPlanes(tailPlanes + (formerNum > 0 ? 1 : 0));
    tiling.set_tailPlanes(tailPlanes);
    tiling.set_bufferNum(bufferNum);
    tiling.set_epsilon(*epsilon);
    tiling.set_avgFactor(1.0f / static_cast<float>(inner));
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class InstanceNormCustom : public OpDef {
public:
    explicit InstanceNormCustom(const char* name) : OpDef(name)
    {
        const char* names[] = {"x", "gamma", "beta"};
        for (const char* n : names) {
            this->Input(n)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
                .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        }
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(InstanceNormCustom);
}  // namespace ops
