// Host side of BatchNormCustom: the operator definition and the tiling function.
#include "batch_norm_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tuning_knobs.h"

namespace optiling {
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t FLOAT_SIZE = 4;
constexpr uint32_t WINDOW_MAX = 1024;         // channels of scale/shift kept in UB at once
constexpr uint64_t MAX_BLOCK_COUNT = 4095;    // planes per DataCopyPad
constexpr uint64_t RESERVED_UB = 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    BatchNormTilingData tiling;
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
    if (channels == 0 || inner == 0) {
        return ge::GRAPH_FAILED;
    }
    for (int i = 1; i <= 4; ++i) {
        if (context->GetInputShape(i)->GetOriginShape().GetShapeSize() != static_cast<int64_t>(channels)) {
            return ge::GRAPH_FAILED;
        }
    }
    uint64_t planes = shape.GetShapeSize() / inner;
    bool computeInFloat = typeSize != FLOAT_SIZE;

    // Fewest planes a core gets (tuning knob, tiling/tuning_knobs.h).
    uint32_t minPlanesPerCore = static_cast<uint32_t>(
        tuning::Knob("min_planes_per_core", 1, {1, 4, 16, 64}, tuning::Role::CoreSplit));
    uint64_t coreLimit = (planes + minPlanesPerCore - 1) / minPlanesPerCore;
    uint32_t usedCores = coreLimit < coreNum ? static_cast<uint32_t>(coreLimit) : coreNum;
    uint32_t tailPlanes = static_cast<uint32_t>(planes / usedCores);
    uint32_t formerNum = static_cast<uint32_t>(planes % usedCores);
    uint32_t formerPlanes = tailPlanes + (formerNum > 0 ? 1 : 0);

    // Buffers per queue (tuning knob): two overlap copy in, compute and copy out.
    uint32_t bufferNum = static_cast<uint32_t>(
        tuning::Knob("buffer_num", BUFFER_NUM, {1, 2}, tuning::Role::BufferCount));
    uint32_t window = channels < WINDOW_MAX ? static_cast<uint32_t>(channels) : WINDOW_MAX;
    uint64_t windowPitch = (window + 7) / 8 * 8;  // float elements, 32 B multiple
    // The four parameter rows as loaded, and scale, shift and a scratch row in float.
    uint64_t fixedBytes = windowPitch * (4 * typeSize + 3 * FLOAT_SIZE) + 4 * BLOCK_SIZE;
    if (fixedBytes + RESERVED_UB >= ubSize) {
        return ge::GRAPH_FAILED;
    }
    uint64_t budget = ubSize - RESERVED_UB - fixedBytes;
    // Per tile element: the input and output queues, and a float copy for 16-bit types.
    uint64_t perElem = static_cast<uint64_t>(typeSize) * 2 * bufferNum + (computeInFloat ? FLOAT_SIZE : 0);
    uint64_t alignNum = BLOCK_SIZE / typeSize;
    uint64_t pitch = (inner + alignNum - 1) / alignNum * alignNum;
    uint64_t chunk = inner;
    uint64_t planesPerTile = 1;
    if (pitch * perElem <= budget) {
        planesPerTile = budget / (pitch * perElem);
        // Most planes per tile (tuning knob; 0: as many as UB allows).
        uint32_t planesCap = static_cast<uint32_t>(
            tuning::Knob("planes_per_tile_cap", 0, {0, 1, 4, 16, 64, 256}, tuning::Role::TileSize));
        if (planesCap != 0 && planesCap < planesPerTile) {
            planesPerTile = planesCap;
        }
        planesPerTile = planesPerTile < MAX_BLOCK_COUNT ? planesPerTile : MAX_BLOCK_COUNT;
        planesPerTile = planesPerTile < formerPlanes ? planesPerTile : formerPlanes;
    } else {
        chunk = budget / perElem / 64 * 64;  // whole 256 B float repeats
        pitch = chunk;
    }
    if (chunk == 0 || planesPerTile == 0) {
        return ge::GRAPH_FAILED;
    }

    tiling.set_channels(static_cast<uint32_t>(channels));
    tiling.set_inner(static_cast<uint32_t>(inner));
    tiling.set_chunk(static_cast<uint32_t>(chunk));
    tiling.set_pitch(static_cast<uint32_t>(pitch));
    tiling.set_planesPerTile(static_cast<uint32_t>(planesPerTile));
    tiling.set_window(window);
    tiling.set_formerNum(formerNum);
    tiling.set_formerPlanes(formerPlanes);
    tiling.set_tailPlanes(tailPlanes);
    tiling.set_bufferNum(bufferNum);
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
class BatchNormCustom : public OpDef {
public:
    explicit BatchNormCustom(const char* name) : OpDef(name)
    {
        const char* names[] = {"x", "mean", "var", "gamma", "beta"};
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
OP_ADD(BatchNormCustom);
}  // namespace ops
