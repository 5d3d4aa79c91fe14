// Host side of AdamCustom: the operator definition and the tiling function.
#include <cmath>

#include "adam_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tuning_knobs.h"

namespace optiling {
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t REPEAT_SIZE = 256;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t QUEUE_NUM = 7;     // param, grad, m, v in; param, m, v out
constexpr uint32_t FLOAT_SIZE = 4;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    AdamTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    uint32_t totalLength = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    uint32_t typeSize = ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
    const auto* attrs = context->GetAttrs();
    const float* lr = attrs->GetAttrPointer<float>(0);
    const float* beta1 = attrs->GetAttrPointer<float>(1);
    const float* beta2 = attrs->GetAttrPointer<float>(2);
    const float* eps = attrs->GetAttrPointer<float>(3);
    const int64_t* step = attrs->GetAttrPointer<int64_t>(4);
    if (typeSize == 0 || coreNum == 0 || totalLength == 0 || lr == nullptr || beta1 == nullptr ||
        beta2 == nullptr || eps == nullptr || step == nullptr || *step < 1) {
        return ge::GRAPH_FAILED;
    }

    // Core split unit (tuning knob, tiling/tuning_knobs.h): whole 32 B blocks balance the
    // cores best; coarser units (up to 512 B) start every core's bursts 512 B aligned.
    uint32_t splitBytes = static_cast<uint32_t>(
        tuning::Knob("split_unit_bytes", BLOCK_SIZE, {32, 64, 128, 256, 512}, tuning::Role::CoreSplit));
    uint32_t alignNum = splitBytes / typeSize;
    uint32_t totalBlocks = (totalLength + alignNum - 1) / alignNum;
    uint32_t usedCores = totalBlocks < coreNum ? totalBlocks : coreNum;
    uint32_t blocksPerCore = totalBlocks / usedCores;
    uint32_t formerNum = totalBlocks % usedCores;

    // Per element of a tile: every queue double-buffered, plus one float scratch; half
    // and bf16 also need the four inputs widened to float.
    uint32_t floatCopies = typeSize == FLOAT_SIZE ? 1 : 5;
    uint64_t bytesPerElem = static_cast<uint64_t>(BUFFER_NUM) * QUEUE_NUM * typeSize + floatCopies * FLOAT_SIZE;
    uint32_t elemsPerRepeat = REPEAT_SIZE / FLOAT_SIZE;
    uint32_t tileLength = static_cast<uint32_t>(ubSize / bytesPerElem / elemsPerRepeat * elemsPerRepeat);
    // Longest tile in elements (tuning knob; 0: as long as UB allows). Shorter tiles start
    // the copy/compute overlap sooner, longer ones pay fewer per-iteration costs.
    uint32_t tileCap = static_cast<uint32_t>(
        tuning::Knob("tile_cap", 0, {0, 1024, 2048, 4096, 8192, 16384}, tuning::Role::TileSize));
    if (tileCap != 0 && tileCap < tileLength) {
        tileLength = tileCap / elemsPerRepeat * elemsPerRepeat;
    }
    if (tileLength == 0) {
        return ge::GRAPH_FAILED;  // not even one aligned tile fits in the UB budget
    }

    double bias1 = 1.0 - std::pow(static_cast<double>(*beta1), static_cast<double>(*step));
    double bias2 = 1.0 - std::pow(static_cast<double>(*beta2), static_cast<double>(*step));
    tiling.set_totalLength(totalLength);
    tiling.set_formerNum(formerNum);
    tiling.set_formerLength((blocksPerCore + 1) * alignNum);
    tiling.set_tailLength(blocksPerCore * alignNum);
    tiling.set_tileLength(tileLength);
    tiling.set_beta1(*beta1);
    tiling.set_oneMinusBeta1(1.0f - *beta1);
    tiling.set_beta2(*beta2);
    tiling.set_oneMinusBeta2(1.0f - *beta2);
    tiling.set_eps(*eps);
    tiling.set_negStepSize(static_cast<float>(-*lr / bias1));
    tiling.set_invSqrtBias2(static_cast<float>(1.0 / std::sqrt(bias2)));
    context->SetBlockDim(usedCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class AdamCustom : public OpDef {
public:
    explicit AdamCustom(const char* name) : OpDef(name)
    {
        for (const char* in : {"param", "grad", "m", "v"}) {
            this->Input(in)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
                .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        }
        for (const char* out : {"param_out", "m_out", "v_out"}) {
            this->Output(out)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
                .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        }
        this->Attr("lr").AttrType(OPTIONAL).Float(1e-3);
        this->Attr("beta1").AttrType(OPTIONAL).Float(0.9);
        this->Attr("beta2").AttrType(OPTIONAL).Float(0.999);
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-8);
        this->Attr("step").AttrType(OPTIONAL).Int(1);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AdamCustom);
}  // namespace ops
