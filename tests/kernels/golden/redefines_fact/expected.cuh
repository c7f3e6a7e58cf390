#ifdef __HIP__
#define USE_ROCM 1
#endif
#ifdef USE_ROCM
rocm();
#endif
