#pragma once
#include <cuda_fp8.h>
#ifdef __CUDA_ARCH__
cuda_device();
#endif
int after;
