#ifndef USE_ROCM
cuda();
#else
rocm();
#endif
int last;