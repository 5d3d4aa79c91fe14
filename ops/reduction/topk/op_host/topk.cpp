// Host side of TopKCustom: the operator definition, output shapes and tiling.
#include <cmath>

#include "topk_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_SIZE = 32;
constexpr uint32_t MAX_K = 256;
constexpr uint32_t ROW_ALIGN = 16;             // elements: whole 32 B blocks for 2- and 4-byte types
constexpr uint32_t SHORT_MAX_PITCH = 4096;     // longest row (elements) selected in place
constexpr uint32_t ROUTER_MAX_PITCH = 256;     // rows of up to four float repeats: selected a tile at a time
constexpr uint32_t ROUTER_ROWS = 248;          // rows per router tile (a multiple of 8, at most 255)
constexpr uint64_t ROUTER_UB = 160 * 1024;     // UB for a router tile's buffers
constexpr uint64_t SHORT_TILE_BYTES = 24576;   // input bytes of one tile of short rows
constexpr uint32_t SHORT_MAX_OUT = 4096;       // outputs (rows x k) of one tile of short rows
constexpr uint32_t CHUNK_LEN = 4096;           // elements per chunk of a long row
constexpr uint64_t MAX_BLOCK_MAX_BYTES = 98304;  // UB for a long row's block maxima
constexpr uint32_t MAX_BLOCK_COUNT = 4095;
constexpr double LAUNCH_CYCLES = 55.0;         // 0.03 us block launch step at 1.85 GHz
constexpr double SELECT_CYCLES = 80.0;         // one selection's fixed cost: reduce, syncs, scalar reads/writes

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    TopKTilingData tiling;
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    const gert::Shape& x = context->GetInputShape(0)->GetOriginShape();
    ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = ge::GetSizeByDataType(dtype);
    const int64_t* kAttr = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    if (typeSize == 0 || coreNum == 0 || x.GetDimNum() == 0 || kAttr == nullptr) {
        return ge::GRAPH_FAILED;
    }
    uint64_t cols = x.GetDim(x.GetDimNum() - 1);
    if (cols == 0 || *kAttr < 1 || static_cast<uint64_t>(*kAttr) > cols || *kAttr > MAX_K) {
        return ge::GRAPH_FAILED;
    }
    uint32_t k = static_cast<uint32_t>(*kAttr);
    uint64_t rows = x.GetShapeSize() / cols;
    // bf16 is selected in float; fp16 and fp32 natively.
    uint32_t computeSize = dtype == ge::DT_BF16 ? 4 : typeSize;
    uint32_t blockElems = BLOCK_SIZE / computeSize;

    uint64_t pitch = (cols + ROW_ALIGN - 1) / ROW_ALIGN * ROW_ALIGN;
    uint32_t mode = pitch <= ROUTER_MAX_PITCH ? 2 : (pitch <= SHORT_MAX_PITCH ? 0 : 1);
    uint64_t blockNum = (cols + blockElems - 1) / blockElems;
    double rowCycles = 0.0;
    uint32_t rowsPerTile = 1;
    if (mode == 2) {
        rowCycles = k * (12.0 + 8.0 * (pitch / 64)) + pitch * typeSize / 46.0;  // per row: reduce repeats and masking
    } else if (mode == 0) {
        rowCycles = k * (pitch * computeSize / 256.0 + SELECT_CYCLES) + pitch * typeSize / 46.0;
    } else {
        if (blockNum * computeSize > MAX_BLOCK_MAX_BYTES) {
            return ge::GRAPH_FAILED;  // the row's block maxima must fit in UB
        }
        uint64_t gathered = static_cast<uint64_t>(k) * (BLOCK_SIZE / typeSize);
        rowCycles = cols * typeSize / 46.0 + k * (blockNum * computeSize / 256.0 + SELECT_CYCLES) +
                    k * (gathered * computeSize / 256.0 + SELECT_CYCLES + 20.0);
    }
    // Core count: the estimated work against the launch step of each further block.
    double wanted = std::sqrt(static_cast<double>(rows) * rowCycles / LAUNCH_CYCLES);
    uint64_t usedCores = wanted < 1.0 ? 1 : static_cast<uint64_t>(wanted);
    usedCores = usedCores < coreNum ? usedCores : coreNum;
    usedCores = usedCores < rows ? usedCores : rows;
    uint64_t tailRows = rows / usedCores;
    uint64_t formerNum = rows % usedCores;
    uint64_t blockRows = tailRows + (formerNum > 0 ? 1 : 0);
    if (mode == 2) {
        // The router tile's buffers as the kernel allocates them (input queue, float copy,
        // column indices, differences, mask bits, pairs, spread, value and index columns,
        // Gather table and scratch, segment buffers, output queues); rows shrink until they fit.
        uint64_t r = ROUTER_ROWS < blockRows ? ROUTER_ROWS : blockRows;
        auto align = [](uint64_t v, uint64_t a) { return (v + a - 1) / a * a; };
        auto bytes = [&](uint64_t rows) {
            uint64_t rowsPad = pitch > 64 ? align(rows, 64) : align(rows, 8);
            uint64_t tileFloats = align(rows * pitch, 64);
            uint64_t outs = rows * k;
            return 2 * rows * pitch * typeSize + 3 * tileFloats * 4 + align(tileFloats / 8, 32) + rowsPad * 8 +
                   rowsPad * 36 + 2 * k * rowsPad * 4 + 3 * align(outs * 4, 32) +
                   (pitch > 64 ? 16 * rowsPad + rowsPad / 8 + 32 : 0) + 2 * align(outs * typeSize, 32) +
                   2 * align(outs * 4, 32) + 1024;
        };
        while (r > 1 && bytes(r) > ROUTER_UB) {
            r = r * 3 / 4;
        }
        if (bytes(r) > ROUTER_UB) {
            mode = 0;  // k too large for column buffers: rows selected in place
        } else {
            rowsPerTile = static_cast<uint32_t>(r < 1 ? 1 : r);
        }
    }
    if (mode == 0) {
        uint64_t r = SHORT_TILE_BYTES / (pitch * typeSize);
        uint64_t byOut = SHORT_MAX_OUT / k;
        r = r < byOut ? r : byOut;
        r = r < blockRows ? r : blockRows;
        r = r < MAX_BLOCK_COUNT ? r : MAX_BLOCK_COUNT;
        rowsPerTile = static_cast<uint32_t>(r < 1 ? 1 : r);
    }

    tiling.set_cols(static_cast<uint32_t>(cols));
    tiling.set_k(k);
    tiling.set_formerNum(static_cast<uint32_t>(formerNum));
    tiling.set_formerRows(static_cast<uint32_t>(blockRows));
    tiling.set_tailRows(static_cast<uint32_t>(tailRows));
    tiling.set_mode(mode);
    tiling.set_pitch(static_cast<uint32_t>(pitch));
    tiling.set_rowsPerTile(rowsPerTile);
    tiling.set_chunkLen(CHUNK_LEN);
    tiling.set_blockNum(static_cast<uint32_t>(blockNum));
    context->SetBlockDim(static_cast<uint32_t>(usedCores));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
// values and indices are x with the last dimension replaced by k.
static graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    const int64_t* k = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    if (x == nullptr || k == nullptr || x->GetDimNum() == 0 || *k < 1) {
        return GRAPH_FAILED;
    }
    for (size_t o = 0; o < 2; ++o) {
        gert::Shape* y = context->GetOutputShape(o);
        if (y == nullptr) {
            return GRAPH_FAILED;
        }
        y->SetDimNum(0);
        for (size_t d = 0; d + 1 < x->GetDimNum(); ++d) {
            y->AppendDim(x->GetDim(d));
        }
        y->AppendDim(*k);
    }
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class TopKCustom : public OpDef {
public:
    explicit TopKCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("values")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("indices")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32, ge::DT_INT32, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("k").AttrType(OPTIONAL).Int(1);
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(TopKCustom);
}  // namespace ops
