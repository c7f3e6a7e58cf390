// Keep this comment: it is above the conditional.
#ifdef USE_ROCM  // ROCm path
rocm();
#else  /* CUDA path */
cuda();  // a comment on kept code
#endif  // USE_ROCM
/*
#ifdef USE_ROCM
this is inside a comment and must stay
#endif
*/
const char* s = "#ifdef USE_ROCM";
  #  ifndef USE_MUSA   /* indented, spaced */
not_musa();
  #  endif
#if !defined(USE_ROCM) && CUDA_VERSION >= 12000  // keep this trailing comment
reduced();
#endif
