#if defined __CUDA_ARCH__ && __CUDA_ARCH__ >= 610
dp4a_path();
#endif
#if defined(CUDA_VERSION) && CUDA_VERSION >= 12080
staged();
#endif
#if !defined(CUDA_VERSION) || (CUDA_VERSION < 12080)
fallback();
#endif
always();
#if (FOO && (BAR))
mixed();
#endif
#if FOO + 1 > 2 || defined(USE_ROCM)
arithmetic_left_alone();
#endif
