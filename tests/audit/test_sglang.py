"""The kernel table on the real sglang 0.5.23 wheel (downloaded once, cached). Expectations are either derived
independently from the sources here (counts by regular expression) or facts checked by hand (docs/audit.md)."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

from slimfork.audit.kernels import kernel_findings
from slimfork.audit.kerneltable import include_closure, kernel_table, referenced_kernel_files
from slimfork.audit.scan import scan_tree
from slimfork.index import build_index
from slimfork.source.fetch import fetch_pypi

pytestmark = pytest.mark.slow

CSRC = "sglang/kernels/jit/csrc/"


@pytest.fixture(scope="module")
def sglang():
    root = fetch_pypi("sglang", "0.5.23")
    index = build_index(root)
    return root, index, kernel_table(root, index)


def _python_sources(root: Path):
    for path in sorted(root.rglob("*.py")):
        yield path.relative_to(root).as_posix(), path.read_text(encoding="utf-8", errors="replace")


def _triton_decorators(text: str) -> int:
    """``@triton.jit`` as code (tokens), not in docstrings: an independent count of the Triton kernels."""
    try:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(text).readline)
                  if t.type not in (tokenize.NL, tokenize.COMMENT)]
    except (tokenize.TokenError, SyntaxError):
        return 0
    return sum(1 for i, t in enumerate(tokens[:-3]) if t.string == "@" and t.type == tokenize.OP
               and [x.string for x in tokens[i + 1:i + 4]] == ["triton", ".", "jit"])


def test_every_triton_kernel_and_load_jit_call_is_in_the_table(sglang):
    root, _index, table = sglang
    decorators = loader_calls = 0
    for rel, text in _python_sources(root):
        decorators += _triton_decorators(text) if "@triton.jit" in text else 0
        if not rel.endswith("compile/loader.py"):  # the definition of load_jit itself
            loader_calls += len(re.findall(r"\bload_jit\(", text))
    kinds = [k.kind for k in table.kernels]
    assert decorators > 1000 and kinds.count("triton") == decorators
    assert loader_calls > 200 and kinds.count("jit") == loader_calls


def test_jit_kernels_link_sources_and_call_sites(sglang):
    _root, _index, table = sglang
    kernels = table.by_id()
    hicache = kernels["jit:hicache"]
    assert hicache.path == "sglang/kernels/ops/kvcache/hicache.py"
    assert hicache.sources == [CSRC + "kvcacheio/hicache.cuh"]
    assert {u.function for u in hicache.uses} >= {"transfer_hicache_one_layer", "transfer_hicache_all_layer_mla"}
    # a source list given by a module constant (_CUDA_FILE = "deepseek_v32/indexer_k.cuh")
    assert kernels["jit:dpsk_v32_k_indexer_norm_rope"].sources == [CSRC + "deepseek_v32/indexer_k.cuh"]
    # every JIT source folder file is named by a loader, included by a named file, or reported as unused
    csrc = {p for p in table.native if p.startswith(CSRC)}
    closure = include_closure(table, set(table.file_uses))
    unused_sources = {f.subject.removeprefix("source:") for f in kernel_findings(table, set(_index.files))
                      if f.subject.startswith("source:")}
    assert csrc <= set(closure) | unused_sources
    assert {p for p in unused_sources if p.startswith(CSRC)} == {
        CSRC + "moe/expert_specialization/es_sm100_mxfp8_blockscaled_group_quant.cuh",
        CSRC + "moe/expert_specialization/es_sm100_mxfp8_blockscaled_moe_group_gemm.cuh",
        CSRC + "moe/expert_specialization/es_sm100_mxfp8_blockscaled_moe_group_gemm_functor.cuh",
        CSRC + "moe/expert_specialization/es_sm100_mxfp8_blockscaled_moe_group_gemm_traits.cuh",
    }  # checked by hand: no loader, string or #include names them (sgl_kernel ships the es_* ops prebuilt)


def test_sgl_kernel_ops_and_triton_call_sites(sglang):
    _root, _index, table = sglang
    kernels = table.by_id()
    ops = [k for k in table.kernels if k.kind == "torch-op" and k.name.startswith("sgl_kernel::")]
    assert len(ops) >= 70 and all(k.path is None and k.uses for k in ops)
    rmsnorm = kernels["torch-op:sgl_kernel::rmsnorm_cpu"]
    assert "sglang/srt/layers/layernorm.py" in {u.path for u in rmsnorm.uses}
    # checked by hand: _attn_fwd is defined and never referenced again
    assert kernels["triton:sglang/kernels/ops/diffusion/attention/sparse_linear_attn_triton.py::_attn_fwd"].uses == []
    # HIP kernels looked up by name from Python with an f-string: f"smallm{pre}_p1_i{inter}_c16"
    hip = "cuda:sglang/kernels/ops/moe/smallm_moe_gfx950/smallm_moe.hip::"
    assert ("sglang/kernels/ops/moe/smallm_moe_gfx950/__init__.py", "pattern") in \
        {(u.path, u.how) for u in kernels[hip + "smallm_p1_i256_c16"].uses}
    assert kernels[hip + "smallm_p2b_i256"].uses == []  # checked by hand: nothing looks it up


def test_referenced_kernel_files_for_a_kept_module(sglang):
    _root, _index, table = sglang
    kept = referenced_kernel_files(table, {"sglang/kernels/ops/kvcache/hicache.py"})
    assert kept[CSRC + "kvcacheio/hicache.cuh"].startswith("named by sglang/kernels/ops/kvcache/hicache.py:")
    assert all(p.startswith(CSRC + "kvcacheio/") for p in kept)


def test_kernel_scan_covers_every_indexed_file(sglang):
    """The audit's extra pass reads every file the index read (443 files of sglang/srt/layers). Its cost next to
    the index's is measured in docs/audit.md, not asserted here: speed goals belong in benchmarks."""
    root = sglang[0] / "sglang" / "srt" / "layers"
    index = build_index(root, jobs=1, use_cache=False)
    scan = scan_tree(index, jobs=1, use_cache=False)
    assert len(scan.py) == len(index.files) > 400
