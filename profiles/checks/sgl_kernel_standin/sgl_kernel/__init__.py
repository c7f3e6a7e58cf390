"""A stand-in for ``sgl_kernel`` (the sglang-kernel wheel) for the GPU single-layer check.

The check runs sglang's CUDA paths without the 373 MB sglang-kernel wheel: the few ops a DeepSeek layer calls from
it are written here in plain torch (``IMPLEMENTED``), ``moe_align_block_size`` is handed to sglang's own JIT build
of that kernel (``sglang.kernels.ops.moe.moe_align``), and every other name is importable (``from sgl_kernel import
x`` works, submodules too) but raises ``StandInMissing`` when called. Every call is logged in ``CALLS`` and every
refused one in ``REFUSED``: a caller that swallows the exception still leaves its name there, so the check reports
"not comparable" instead of a result computed without the op.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
import types
from pathlib import Path

__version__ = "0.0.0+slimfork-standin"

CALLS: list[str] = []  # every call into the stand-in, in order (implemented or not)
REFUSED: list[str] = []  # the names called that have no stand-in


class StandInMissing(NotImplementedError):
    """An sgl_kernel op without a stand-in was called: the result of this run is not comparable."""


class _MissingMeta(type):
    """A placeholder: attributes are placeholders too (``scalar_types.uint4b8``), calling one refuses."""

    def __getattr__(cls, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        child = _missing(f"{cls.__qualname__}.{name}")
        setattr(cls, name, child)
        return child

    def __call__(cls, *args, **kwargs):
        CALLS.append(cls.__qualname__)
        REFUSED.append(cls.__qualname__)
        raise StandInMissing(f"sgl_kernel stand-in: {cls.__qualname__} has no stand-in (not comparable)")


def _missing(qualname: str) -> type:
    return _MissingMeta(qualname.rsplit(".", 1)[-1], (), {"__qualname__": qualname, "__module__": "sgl_kernel"})


def _logged(name):
    def wrap(fn):
        def call(*args, **kwargs):
            CALLS.append(name)
            return fn(*args, **kwargs)
        call.__name__ = call.__qualname__ = name
        call.__doc__ = fn.__doc__
        return call
    return wrap


def _rms(x, weight, eps):
    import torch

    xf = x.float()
    return (xf * torch.rsqrt(xf.pow(2).mean(dim=-1, keepdim=True) + eps) * weight.float()).to(x.dtype)


@_logged("sgl_kernel.rmsnorm")
def rmsnorm(input, weight, eps=1e-6, out=None, enable_pdl=None):
    result = _rms(input, weight, eps)
    if out is None:
        return result
    out.copy_(result)
    return out


@_logged("sgl_kernel.fused_add_rmsnorm")
def fused_add_rmsnorm(input, residual, weight, eps=1e-6, enable_pdl=None):
    """In place, as the kernel: residual += input, then input = rmsnorm(residual) * weight."""
    residual.copy_((input.float() + residual.float()).to(residual.dtype))
    input.copy_(_rms(residual, weight, eps))


def _gated(act):
    def op(input, out=None, enable_pdl=None):
        d = input.shape[-1] // 2
        result = (act(input[..., :d].float()) * input[..., d:].float()).to(input.dtype)
        if out is None:
            return result
        out.copy_(result)
        return out
    return op


def _silu(x):
    import torch.nn.functional as F

    return F.silu(x)


def _gelu(x):
    import torch.nn.functional as F

    return F.gelu(x)


def _gelu_tanh(x):
    import torch.nn.functional as F

    return F.gelu(x, approximate="tanh")


silu_and_mul = _logged("sgl_kernel.silu_and_mul")(_gated(_silu))
gelu_and_mul = _logged("sgl_kernel.gelu_and_mul")(_gated(_gelu))
gelu_tanh_and_mul = _logged("sgl_kernel.gelu_tanh_and_mul")(_gated(_gelu_tanh))


@_logged("sgl_kernel.moe_sum_reduce")
def moe_sum_reduce(input, output, routed_scaling_factor):
    """output[t] = sum over the top-k rows of input[t] (float accumulation), times the scaling factor."""
    output.copy_((input.float().sum(dim=1) * routed_scaling_factor).to(output.dtype))


@_logged("sgl_kernel.concat_mla_k")
def concat_mla_k(k, k_nope, k_rope):
    """k = [k_nope | k_rope], the rope part shared by every head."""
    nope = k_nope.shape[-1]
    k[..., :nope] = k_nope
    k[..., nope:] = k_rope


@_logged("sgl_kernel.moe_align_block_size")
def moe_align_block_size(topk_ids, num_experts, block_size, sorted_token_ids, experts_ids, num_tokens_post_pad,
                         cumsum_buffer, pad_sorted_token_ids=False, ignore_invalid_expert=False):
    """Handed to sglang's own JIT build of the kernel (the tree under test's copy)."""
    if ignore_invalid_expert:
        REFUSED.append("sgl_kernel.moe_align_block_size(ignore_invalid_expert=True)")
        raise StandInMissing("sgl_kernel stand-in: moe_align_block_size with ignore_invalid_expert has no stand-in")
    from sglang.kernels.ops.moe.moe_align import moe_align_block_size as jit

    jit(topk_ids, num_experts, block_size, sorted_token_ids, experts_ids, num_tokens_post_pad, cumsum_buffer,
        pad_sorted_token_ids)


IMPLEMENTED = ("rmsnorm", "fused_add_rmsnorm", "silu_and_mul", "gelu_and_mul", "gelu_tanh_and_mul",
               "moe_sum_reduce", "concat_mla_k", "moe_align_block_size")


def __getattr__(name):  # any other public name: importable, refuses when called
    if name.startswith("__") and name.endswith("__"):
        raise AttributeError(name)
    placeholder = _missing(f"sgl_kernel.{name}")
    globals()[name] = placeholder
    return placeholder


class _SubmoduleFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """``sgl_kernel.kvcacheio``, ``sgl_kernel.scalar_type``...: modules whose names are all placeholders (except
    the submodules written beside this file)."""

    def find_spec(self, fullname, path=None, target=None):
        here = Path(__file__).parent  # a submodule written here (utils.py) is imported as a file
        if fullname.startswith("sgl_kernel.") and not (here / f"{fullname.split('.')[1]}.py").is_file():
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        module = types.ModuleType(spec.name)
        module.__path__ = []

        def attr(name, _prefix=spec.name):
            if name.startswith("__") and name.endswith("__"):
                raise AttributeError(name)
            placeholder = _missing(f"{_prefix}.{name}")
            setattr(module, name, placeholder)
            return placeholder

        module.__getattr__ = attr
        return module

    def exec_module(self, module):
        pass


if not any(isinstance(f, _SubmoduleFinder) for f in sys.meta_path):
    sys.meta_path.insert(0, _SubmoduleFinder())
