// The float functions of the C math library that kernel scalar code calls (sqrtf, expf ...),
// declared one by one instead of through <cmath>/<math.h>, which would also declare sqrt, exp,
// log ... in the global namespace: names kernels use for themselves (an operator called exp has
// the entry `extern "C" void exp(GM_ADDR x, ...)`). A kernel that includes <cmath> itself still
// compiles: these declarations match the C library's.
#pragma once

extern "C" {
float sqrtf(float) noexcept;
float expf(float) noexcept;
float logf(float) noexcept;
float powf(float, float) noexcept;
float fabsf(float) noexcept;
float floorf(float) noexcept;
float ceilf(float) noexcept;
float roundf(float) noexcept;
float truncf(float) noexcept;
float tanhf(float) noexcept;
float fmaxf(float, float) noexcept;
float fminf(float, float) noexcept;
}

// The floating-point constants of <math.h> that kernel scalar code uses (a running maximum starts
// at -INFINITY). They are macros, so defining them declares no name a kernel could collide with;
// the definitions are the ones <math.h> gives, so including it afterwards changes nothing.
#ifndef INFINITY
#define INFINITY (__builtin_inff())
#endif
#ifndef NAN
#define NAN (__builtin_nanf(""))
#endif
#ifndef HUGE_VALF
#define HUGE_VALF (__builtin_huge_valf())
#endif
