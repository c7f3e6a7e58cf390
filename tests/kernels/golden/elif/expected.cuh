#if   CUDA_VERSION >= 12080
using fp8 = __nv_fp8_e4m3;
#else
using fp8 = unsigned char;
#endif

#if CUDA_VERSION >= 13000
#define NEW_API 1
#else
#define NEW_API 2
#endif

#if   __CUDA_ARCH__ >= 900
hopper();
#endif
