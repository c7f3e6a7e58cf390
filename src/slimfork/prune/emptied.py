"""Modules symbol pruning emptied that only a folder read still reaches: mimesis' locale tables
(``datasets/int/common.py``) lost every name and the star import that loaded them, but ``DATADIR =
Path(__file__).parent / "datasets"`` reads their folder for its JSON files, so the module graph kept them as empty
files. Nothing kept imports them any more and they define nothing: they go, as unreachable modules, unless a kept
file names their file (``"common.py"``: the reader may list or open it) or something else reaches them (an
import, a string naming the module, a dynamic import)."""

from __future__ import annotations

import ast
import posixpath
from pathlib import Path

from slimfork.decisions import Removal, RemovalKind

_FOLDER_READS = ("the folder ", "the package ")  # graph/edges.py's details of a folder read and a resources read


def emptied_modules(graph, plan, contents: dict[str, bytes], scratch: Path) -> list[Removal]:
    """``contents``: path -> the content symbol pruning left (of the files it rewrote)."""
    removed = plan.removed_paths()
    roots = {r.module for r in graph.roots}
    out = []
    kept_text: bytes | None = None
    for path, content in sorted(contents.items()):
        module = graph.mm.module_of(path)
        if path in removed or module is None or path.endswith("__init__.py") or module in roots \
                or module not in graph.reached or not _defines_nothing(content):
            continue
        readers = [(src, e) for src, e in graph.importers(module) if src in graph.reached and src != module]
        if not readers or not all(e.kind == "path" and e.detail.startswith(_FOLDER_READS) for _, e in readers):
            continue
        if kept_text is None:
            kept_text = b"\n".join((scratch / k.path).read_bytes() for k in plan.kept if k.path.endswith(".py")
                                   and k.path not in removed and (scratch / k.path).is_file())
        if posixpath.basename(path).encode() in kept_text:
            continue
        src, edge = readers[0]
        out.append(Removal(RemovalKind.UNREACHABLE, path, f"symbol pruning left it defining nothing and no kept module "
                           f"imports it; only {src}'s read of its folder reaches it ({edge.detail}, line {edge.line}), "
                           "and no kept file names it", module=module, group="symbols"))
    return out


def _defines_nothing(content: bytes) -> bool:
    """Only a docstring, ``from __future__`` imports or ``pass``."""
    try:
        tree = ast.parse(content)
    except (SyntaxError, ValueError):
        return False
    return all(isinstance(s, ast.Pass) or isinstance(s, ast.ImportFrom) and s.module == "__future__"
               or isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str)
               for s in tree.body)
