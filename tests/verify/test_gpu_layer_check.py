"""The GPU single-layer check's CPU-side logic (profiles/checks/deepseek_layer_cuda.py and its sgl_kernel stand-in):
exact hashing, the stand-in's refusal of every op it does not implement, and "not comparable" rather than a pass.
CI has no GPU: the profile's command ``requires = ["cuda"]`` and is skipped there (tests/core/test_preflight.py)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

CHECKS = Path(__file__).resolve().parents[2] / "profiles" / "checks"
STANDIN = CHECKS / "sgl_kernel_standin"


def _script():
    spec = importlib.util.spec_from_file_location("deepseek_layer_cuda", CHECKS / "deepseek_layer_cuda.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve the module's annotations through sys.modules
    spec.loader.exec_module(module)
    return module


def _standin(code: str) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter with the stand-in first on sys.path (its finder stays out of pytest)."""
    return subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(STANDIN)!r})\n"
                           + textwrap.dedent(code)], capture_output=True, text=True, timeout=60)


def test_digest_is_exact_over_bytes_shape_and_dtype():
    digest = _script().digest
    raw = bytes(range(16))
    assert digest(raw, (2, 4), "torch.bfloat16") == digest(raw, (2, 4), "torch.bfloat16")
    flipped = bytes([raw[0] ^ 1]) + raw[1:]  # one bit of one element: no rounding hides it
    assert digest(flipped, (2, 4), "torch.bfloat16") != digest(raw, (2, 4), "torch.bfloat16")
    assert digest(raw, (4, 2), "torch.bfloat16") != digest(raw, (2, 4), "torch.bfloat16")
    assert digest(raw, (2, 2), "torch.float32") != digest(raw, (2, 4), "torch.bfloat16")
    assert len(digest(raw, (2, 4), "torch.bfloat16")) == 64


def test_a_refused_stand_in_call_is_not_comparable_never_a_pass():
    m = _script()
    ran = m.Outcome("dense decode", digest="ab" * 32, shape=(2, 8), dtype="torch.bfloat16", backend="B",
                    triton=["_fwd_kernel"], jit=["fused_rope_kernel"], standin_calls={"rmsnorm": 2})
    assert m.exit_status([ran]) == 0
    assert m.report(ran)[0] == f"dense decode: B shape=(2, 8) torch.bfloat16 sha256={'ab' * 32}"
    assert "  sgl_kernel stand-in: rmsnorm x2" in m.report(ran)
    # a caller that swallowed the refusal still produced an output: its hash is not printed, the run is not comparable
    swallowed = m.Outcome("moe", digest="cd" * 32, shape=(2, 8), dtype="torch.bfloat16", refused=["sgl_kernel.x"])
    assert m.report(swallowed) == ["moe: not comparable: called sgl_kernel names without a stand-in: sgl_kernel.x"]
    assert m.exit_status([ran, swallowed]) == m.NOT_COMPARABLE != 0
    failed = m.Outcome("moe", error="ImportError: no module named x")
    assert m.report(failed) == ["moe: failed: ImportError: no module named x"]
    assert m.exit_status([ran, failed]) == m.FAILED != 0
    assert m.exit_status([failed, swallowed]) == m.NOT_COMPARABLE


def test_sglang_jit_kernels_are_read_from_cuda_kernel_names():
    names = ["void sglang::fused_rope_kernel<false, 64l, true>(sglang::FusedRopeParams)", "_fwd_kernel",
             "void sglang::moe::moe_align_block_size_small_batch_expert_kernel<int, 256>(int const*)",
             "void at::native::vectorized_elementwise_kernel<4>(int)", "void sglang::fused_rope_kernel<true>(x)"]
    assert _script().sglang_kernels(names) == ["fused_rope_kernel", "moe::moe_align_block_size_small_batch_expert_kernel"]


def test_stand_in_refuses_every_unimplemented_name_and_logs_it():
    proc = _standin('''
        import sgl_kernel
        from sgl_kernel import topk_softmax, rmsnorm            # any name imports
        from sgl_kernel.scalar_type import scalar_types          # submodules too, and their attributes
        from sgl_kernel.kvcacheio import transfer_kv_all_layer
        kinds = scalar_types.uint4b8                             # attribute access is not a call
        for call in (lambda: topk_softmax(1, 2), lambda: transfer_kv_all_layer(), lambda: kinds()):
            try:
                call()
            except sgl_kernel.StandInMissing as exc:
                assert "not comparable" in str(exc)
            else:
                raise SystemExit("a missing op ran")
        try:
            sgl_kernel.moe_fused_gate(None)
        except Exception:
            pass                                                  # a caller that swallows the refusal...
        print(sgl_kernel.REFUSED)                                 # ...still leaves the name here
        print(sgl_kernel.CALLS == sgl_kernel.REFUSED, sgl_kernel.__file__.startswith(sys.path[0]))
    ''')
    assert proc.returncode == 0, proc.stderr
    refused, same = proc.stdout.splitlines()
    assert refused == ("['sgl_kernel.topk_softmax', 'sgl_kernel.kvcacheio.transfer_kv_all_layer', "
                       "'sgl_kernel.scalar_type.scalar_types.uint4b8', 'sgl_kernel.moe_fused_gate']")
    assert same == "True True"


def test_stand_in_submodule_file_is_used_and_dunders_stay_absent():
    proc = _standin('''
        import sgl_kernel, sgl_kernel.utils
        from sgl_kernel.utils import is_arch_support_pdl
        print(sgl_kernel.utils.__file__.endswith("utils.py"), is_arch_support_pdl.__module__)
        print(hasattr(sgl_kernel, "__wrapped__"), sorted(sgl_kernel.IMPLEMENTED)[:3])
    ''')
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["True sgl_kernel.utils",
                                        "False ['concat_mla_k', 'fused_add_rmsnorm', 'gelu_and_mul']"]


def test_stand_in_ops_compute_in_plain_torch():
    pytest.importorskip("torch")
    proc = _standin('''
        import torch, sgl_kernel
        x, r, w = torch.randn(3, 8), torch.randn(3, 8), torch.rand(8) + 0.5
        total = x + r
        want = total * torch.rsqrt(total.pow(2).mean(-1, keepdim=True) + 1e-6) * w
        sgl_kernel.fused_add_rmsnorm(x, r, w, 1e-6)                 # in place: r = x + r, x = rmsnorm(r) * w
        assert torch.allclose(r, total) and torch.allclose(x, want)
        g = torch.randn(2, 6)
        assert torch.allclose(sgl_kernel.silu_and_mul(g), torch.nn.functional.silu(g[:, :3]) * g[:, 3:])
        out = torch.empty(2, 4)
        sgl_kernel.moe_sum_reduce(torch.ones(2, 3, 4), out, 2.5)
        assert torch.equal(out, torch.full((2, 4), 7.5))
        k = torch.empty(5, 2, 6)
        sgl_kernel.concat_mla_k(k, torch.zeros(5, 2, 4), torch.ones(5, 1, 2))
        assert k[..., :4].eq(0).all() and k[..., 4:].eq(1).all()
        print(sgl_kernel.CALLS, sgl_kernel.REFUSED)
    ''')
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == ("['sgl_kernel.fused_add_rmsnorm', 'sgl_kernel.silu_and_mul', "
                                   "'sgl_kernel.moe_sum_reduce', 'sgl_kernel.concat_mla_k'] []")


def test_without_a_gpu_the_script_exits_2_and_prints_nothing():
    pytest.importorskip("torch")
    proc = subprocess.run([sys.executable, str(CHECKS / "deepseek_layer_cuda.py")], capture_output=True, text=True,
                          timeout=120, env={"CUDA_VISIBLE_DEVICES": "", "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 2 and proc.stdout == ""
    assert "no CUDA device" in proc.stderr
