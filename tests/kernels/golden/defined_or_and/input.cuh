#if defined __CUDA_ARCH__ && __CUDA_ARCH__ >= 610 || defined USE_ROCM || defined USE_MUSA
dp4a_path();
#endif
#if !defined(USE_ROCM) && defined(CUDA_VERSION) && CUDA_VERSION >= 12080
staged();
#endif
#if defined(USE_ROCM) || !defined(CUDA_VERSION) || (CUDA_VERSION < 12080)
fallback();
#endif
#if defined(USE_ROCM) && defined(FOO)
never();
#endif
#if defined(USE_ROCM) || defined(SGL_NVIDIA)
always();
#endif
#if (FOO && (defined(USE_MUSA) || BAR)) || defined(__HIP_PLATFORM_AMD__)
mixed();
#endif
#if FOO + 1 > 2 || defined(USE_ROCM)
arithmetic_left_alone();
#endif
