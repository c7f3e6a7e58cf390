"""Compiled sources linked with a source beside them: one that defines a function another compiled source of its
folder uses but does not define (tritonbench's ``mixed_gemm/kernels/torch_op.cpp`` binds ``w2a16``, defined in
``w2a16_gemm.cu``; both built by a Buck target outside the tree) is compiled into the same library, so it lives
when that source does, though no build file, string or include names it."""

from __future__ import annotations

import posixpath

from slimfork.audit.scan import TreeScan

_COMPILED = (".cu", ".cpp", ".cc", ".cxx", ".c", ".hip", ".mm")


def linked_sources(scan: TreeScan) -> dict[str, list[str]]:
    """Compiled source -> the compiled sources of its folder that use a function it alone defines there."""
    by_folder: dict[str, list[str]] = {}
    for rel in scan.native:
        if rel.endswith(_COMPILED):
            by_folder.setdefault(posixpath.dirname(rel), []).append(rel)
    out: dict[str, list[str]] = {}
    for paths in by_folder.values():
        if len(paths) < 2:
            continue
        defined = {p: {fn.name for fn in scan.native[p].functions if not fn.macro and fn.name != "main"}
                   for p in paths}
        used = {p: ({n for fn in scan.native[p].functions for n in fn.uses} | set(scan.native[p].loose))
                - defined[p] for p in paths}
        for path in paths:
            users = [p for p in paths if p != path and defined[path] & used[p]]
            if users:
                out[path] = users
    return out
