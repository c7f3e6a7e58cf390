"""Private modules the project's README shows its users importing: responses 0.26.3's README teaches ``from
responses import _recorder`` (and ``@responses._recorder.record(...)``), the draft's roots took only the modules with
no part starting with '_', and the fork lost ``responses/_recorder.py``, which the tests alone reached. Such a module
is the project's API by its own word: the draft roots it, with the README's line."""

from __future__ import annotations

import re
from pathlib import Path

from slimfork.graph.modules import ModuleMap
from slimfork.source.doc_imports import imported_names

_DOTTED = re.compile(r"\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")


def documented_private(root: Path, mm: ModuleMap, packages: list[str]) -> dict[str, str]:
    """Module -> ``README.rst:1356`` for each module of ``packages`` with a private part (``_recorder``; a dunder
    such as ``__main__`` aside) that a top-level README names in code: ``from pkg import _mod``, ``import
    pkg._mod``, ``pkg._mod.f``."""
    found: dict[str, str] = {}
    for readme in sorted(p for p in root.glob("README*") if p.is_file()):
        try:
            text = readme.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        named = [(n, m.group(0)) for n, line in enumerate(text.splitlines(), 1) for m in _DOTTED.finditer(line)]
        for number, name in sorted(named + list(imported_names(text))):
            module = mm.longest_module(name)
            if module and module.split(".")[0] in packages and _private(module) and module not in found:
                found[module] = f"{readme.name}:{number}"
    return found


def _private(module: str) -> bool:
    return any(p.startswith("_") and not (p.startswith("__") and p.endswith("__")) for p in module.split("."))
