#include <type_traits>
#include "kernel_operator.h"

// Source columns of a resize, computed in float and floored to integers: above 2048 float16
// no longer holds every integer.
template <typename T>
class KernelResizeIndex {
public:
    __aicore__ inline void Init(uint32_t n, float ratio)
    {
        pipe.InitBuffer(coordBuf, n * sizeof(float));
        pipe.InitBuffer(indexBuf, n * sizeof(int32_t));
        pipe.InitBuffer(xBuf, n * sizeof(T));
        this->n = n;
        this->ratio = ratio;
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<float> coord = coordBuf.Get<float>();
        AscendC::LocalTensor<int32_t> index = indexBuf.Get<int32_t>();
        AscendC::LocalTensor<T> x = xBuf.Get<T>();
        AscendC::CreateVecIndex(coord, 0.0f, n);
        AscendC::Muls(coord, coord, ratio, n);
        AscendC::Cast(index, coord, AscendC::RoundMode::CAST_FLOOR, n);
        if constexpr (!std::is_same_v<T, float>) {
            AscendC::Cast(x, coord, AscendC::RoundMode::CAST_RINT, n);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> coordBuf, indexBuf, xBuf;
    uint32_t n = 0;
    float ratio = 1.0f;
};

extern "C" __global__ __aicore__ void resize_index(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelResizeIndex<half> op;
    op.Init(128, 0.5f);
    op.Compute();
}
