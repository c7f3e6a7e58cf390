"""BitBLAS (``56c692c0f^``): ``#define REGISTER_INVOKER(kernel, function) __global__ void kernel(Args... args)``
defines one kernel per invocation (``REGISTER_INVOKER(kernelWrapper_i4s_to_f16, decode_i4s_to_f16)``), but was read
as a kernel named ``kernel`` (70); and a regex in a Python string (``r"__global__\\s+void\\s+[__launch_bounds__\\(\\d+\\)
\\s+]\\w+"``) as a kernel named ``__launch_bounds__`` (60). A kernel named by a macro parameter is named at each
invocation; a reserved ``__word__`` is never a kernel's name."""

from __future__ import annotations

from slimfork.index.nativescan import scan_native

INVOKERS = r"""
#define REGISTER_INVOKER(kernel, function)            \
    template <typename... Args>                       \
    __global__ void kernel(Args... args)              \
    {                                                 \
        function(args...);                            \
    }

REGISTER_INVOKER(kernelWrapper_i4s_to_f16, decode_i4s_to_f16)
REGISTER_INVOKER(kernelWrapper_i2s_to_f16, decode_i2s_to_f16)
"""


def test_a_kernel_named_by_a_macro_parameter_is_named_at_each_invocation():
    names = sorted(k.name for k in scan_native(INVOKERS).kernels)
    assert names == ["kernelWrapper_i2s_to_f16", "kernelWrapper_i4s_to_f16"]


def test_a_reserved_word_is_no_kernel_name():
    text = r'pattern = "__global__\s+void\s+[__launch_bounds__\(\d+\)\s+]\w+"; __global__ void __launch_bounds__\(1\) k('
    assert "__launch_bounds__" not in {k.name for k in scan_native(text).kernels}
