#if defined(FOO)
level2_foo();
#endif
level2();
nvidia();
