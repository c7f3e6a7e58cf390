#pragma once
#ifndef USE_ROCM
#include <cuda_fp8.h>
#ifdef __CUDA_ARCH__
#ifdef USE_MUSA
musa_device();
#else
cuda_device();
#endif
#endif
#else
#include <hip/hip_fp8.h>
#ifdef __HIPCC__
hip_device();
#endif
#endif
int after;
