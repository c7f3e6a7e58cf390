#if __CUDA_ARCH__ >= 900
sm90();
#elif __CUDA_ARCH__ >= 800
sm80();
#endif
#if defined(CUDA_VERSION) && CUDA_VERSION >= 12000
cuda12();
#endif
#ifdef ENABLE_FP4
fp4();
#endif
#if 0
sketch();
#endif
#ifndef WARP_SIZE
#define WARP_SIZE 32
#endif
#ifdef USE_ROCM
rocm_only();
#endif
