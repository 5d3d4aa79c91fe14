// Host side of MulScalarCustom (expert): the tiling splits the tensor across cores in
// 512 B units, so every core's slice and every full tile start on a 512 B boundary
// (32 B-aligned GM bursts reach only ~70 % of the bandwidth of 512 B-aligned ones).
#include "mul_scalar_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include <cmath>

namespace optiling {
constexpr uint32_t SPLIT_BYTES = 512;
constexpr double LAUNCH_CYCLES_PER_CORE = 55.0;
constexpr double MTE2_BYTES_PER_CYCLE = 46.0;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t INPUT_NUM = 1;
constexpr uint32_t TILE_ALIGN = 256;  // elements: a multiple of 512 B for every dtype

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    MulScalarTilingData tiling;
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
    // Split whole 512 B units across cores so every core starts 512 B-aligned; the first
    // `formerNum` cores take one unit more. The kernel cuts the last core's share at the
    // end of the tensor.
    uint32_t alignNum = SPLIT_BYTES / typeSize;
    uint32_t totalBlocks = (totalLength + alignNum - 1) / alignNum;
    // expert: core count from the amount of work. W cycles of single-core copy work (the
    // input at ~46 B/cycle of MTE2) over k cores cost W / k + k * launch, best at
    // k = sqrt(W / launch), with ~0.03 us (55 cycles) per further block started: a
    // decode-sized tensor pays more for starting 48 cores than it saves.
    double work = static_cast<double>(totalLength) * INPUT_NUM * typeSize / MTE2_BYTES_PER_CYCLE;
    uint32_t wantCores = static_cast<uint32_t>(std::ceil(std::sqrt(work / LAUNCH_CYCLES_PER_CORE)));
    wantCores = wantCores == 0 ? 1 : (wantCores < coreNum ? wantCores : coreNum);
    uint32_t usedCores = totalBlocks < wantCores ? totalBlocks : wantCores;
    uint32_t blocksPerCore = totalBlocks / usedCores;
    uint32_t formerNum = totalBlocks % usedCores;

    // UB per element of a tile: double-buffered queues for every input and the output,
    // plus float copies of the inputs when the kernel computes in float (bfloat16 is computed in float (the vector unit has no bf16 arithmetic); float16 natively).
    bool computeInFloat = dtype == ge::DT_BF16;
    uint64_t bytesPerElem = static_cast<uint64_t>(BUFFER_NUM) * (INPUT_NUM + 1) * typeSize;
    if (computeInFloat) {
        bytesPerElem += INPUT_NUM * sizeof(float);
    }
    uint32_t tileLength = static_cast<uint32_t>(ubSize / bytesPerElem / TILE_ALIGN * TILE_ALIGN);

    tiling.set_totalLength(totalLength);
    tiling.set_formerNum(formerNum);
    tiling.set_formerLength((blocksPerCore + 1) * alignNum);
    tiling.set_tailLength(blocksPerCore * alignNum);
    tiling.set_tileLength(tileLength);
    const float* alpha = context->GetAttrs()->GetAttrPointer<float>(0);
    if (alpha == nullptr) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_alpha(*alpha);
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class MulScalarCustom : public OpDef {
public:
    explicit MulScalarCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("alpha").AttrType(OPTIONAL).Float(2.0);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MulScalarCustom);
}  // namespace ops
