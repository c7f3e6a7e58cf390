"""The kernel scan is cached by content like the index: a Python file's scan is part of its index summary (one
parse), a native source's is cached beside it; a second run reads everything from the caches, an edit rescans only
the edited file, and a corrupt cache is only a slower run."""

from __future__ import annotations

from slimfork.audit.scan import scan_tree
from slimfork.index import build_index
from slimfork.source.cache import cache_dir


def test_scan_cache(copy_fixture):
    root = copy_fixture("audit", "gpu_lib")
    index = build_index(root, jobs=1)
    first = scan_tree(index, jobs=1)
    assert index.parsed == len(first.py) > 5 and first.scanned == len(first.native) > 5
    index = build_index(root, jobs=1)
    assert (index.parsed, scan_tree(index, jobs=1).scanned) == (0, 0)

    ops = root / "gpulib" / "ops.py"
    ops.write_text(ops.read_text() + "\n\n@triton.jit\ndef _added(x):\n    pass\n")
    (root / "gpulib" / "csrc" / "orphan.cuh").write_text("__global__ void renamed_kernel(float* x) {}\n")
    index = build_index(root, jobs=1)
    again = scan_tree(index, jobs=1)
    assert (index.parsed, again.scanned) == (1, 1)
    assert "_added" in [d.name for d in again.py["gpulib/ops.py"].triton]
    assert [k.name for k in again.native["gpulib/csrc/orphan.cuh"].kernels] == ["renamed_kernel"]

    for cache in [*cache_dir("audit").glob("scan-*.pkl"), *cache_dir("index").rglob("*.pkl")]:  # by content too
        cache.write_bytes(b"not a pickle")
    del index, again  # summaries still held in this process would be reused, not parsed
    index = build_index(root, jobs=1)
    assert (index.parsed, scan_tree(index, jobs=1).scanned) == (len(first.py), len(first.native))
