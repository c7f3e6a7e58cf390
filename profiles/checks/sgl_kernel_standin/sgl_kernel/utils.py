"""``sgl_kernel.utils`` of the stand-in: the PDL probe, answered by sglang's own JIT helper (SM90 and later)."""

from sgl_kernel import CALLS, _missing


def is_arch_support_pdl() -> bool:
    CALLS.append("sgl_kernel.utils.is_arch_support_pdl")
    from sglang.kernels.jit.utils import is_arch_support_pdl as jit_probe

    return jit_probe()


def __getattr__(name):
    if name.startswith("__") and name.endswith("__"):
        raise AttributeError(name)
    return _missing(f"sgl_kernel.utils.{name}")
