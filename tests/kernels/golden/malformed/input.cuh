#ifdef USE_ROCM
rocm();
#else
cuda();
#else
again();
#endif
