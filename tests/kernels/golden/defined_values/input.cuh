#if SGL_LEVEL >= 2 && defined(FOO)
level2_foo();
#endif
#if SGL_LEVEL == 1
level1();
#elif SGL_LEVEL == 2
level2();
#endif
#if SGL_NVIDIA
nvidia();
#else
other();
#endif
