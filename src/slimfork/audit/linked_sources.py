"""Compiled sources linked with a source beside them: one that defines a function no other source of the tree
defines and another compiled source of its folder uses (tritonbench's ``mixed_gemm/kernels/torch_op.cpp`` binds
``w2a16``, defined in ``w2a16_gemm.cu``; both built by a Buck target outside the tree) is compiled into the same
library, so it lives when that source does (unless a build file of the tree compiles that one: it names all it
builds), though no build file, string or include names it."""

from __future__ import annotations

import posixpath
from collections import Counter

from slimfork.audit.scan import TreeScan

_COMPILED = (".cu", ".cpp", ".cc", ".cxx", ".c", ".hip", ".mm")


def linked_sources(scan: TreeScan) -> dict[str, list[str]]:
    """Compiled source -> the compiled sources of its folder that use a function it alone of the tree defines."""
    by_folder: dict[str, list[str]] = {}
    defined: dict[str, set[str]] = {}
    for rel, nat in scan.native.items():
        if rel.endswith(_COMPILED):
            by_folder.setdefault(posixpath.dirname(rel), []).append(rel)
            defined[rel] = {fn.name for fn in nat.functions if not fn.macro and fn.name != "main"}
    # a function several sources of the tree define (a copy: gemm_old.cu beside gemm.cu, pytorch/nms_cuda.cu beside
    # pytorch/cuda/nms_cuda.cu) links nothing: which one is built is unknown
    counts = Counter(name for names in defined.values() for name in names)
    out: dict[str, list[str]] = {}
    for paths in by_folder.values():
        if len(paths) < 2:
            continue
        alone = {p: {name for name in defined[p] if counts[name] == 1} for p in paths}
        used = {p: ({n for fn in scan.native[p].functions for n in fn.uses} | set(scan.native[p].loose))
                - defined[p] for p in paths}
        for path in paths:
            users = [p for p in paths if p != path and alone[path] & used[p]]
            if users:
                out[path] = users
    return out
