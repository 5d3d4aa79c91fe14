// Entry of the fixture: an operator named like the C library's exp.
#include "kernel_operator.h"
#include "exp_kernel.h"

extern "C" __global__ __aicore__ void exp(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(ExpTilingData, tilingData, tiling);
    ExpKernel<DTYPE_X> op;
    op.Init(x, y, tilingData);
    op.Process();
}
