// Keep this comment: it is above the conditional.
cuda();  // a comment on kept code
/*
#ifdef USE_ROCM
this is inside a comment and must stay
#endif
*/
const char* s = "#ifdef USE_ROCM";
not_musa();
#if CUDA_VERSION >= 12000  // keep this trailing comment
reduced();
#endif
