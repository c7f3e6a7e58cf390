#if defined(USE_ROCM)
using fp8 = __hip_fp8_e4m3;
#elif defined(USE_MUSA)
using fp8 = __mt_fp8_e4m3;
#elif CUDA_VERSION >= 12080
using fp8 = __nv_fp8_e4m3;
#else
using fp8 = unsigned char;
#endif

#if CUDA_VERSION >= 13000
#define NEW_API 1
#elif defined(USE_ROCM)
#define NEW_API 0
#elif SGL_NVIDIA
#define NEW_API 2
#endif

#ifdef USE_ROCM
rocm_only();
#elif __CUDA_ARCH__ >= 900
hopper();
#endif
