"""Modules the project's documents show users importing: ``import flute.integrations.huggingface`` in a README's
code block, ``from flute.tune import TuneTask``. Nothing in the tree may import them, but the documents say users
do: public API (40), whether or not the audit tells the tree for a library."""

from __future__ import annotations

from pathlib import Path

from slimfork.source.doc_imports import imported_names

_DOCS = (".md", ".rst", ".markdown")


def documented_modules(root: Path, other_files: list[str], module_path) -> dict[str, str]:
    """Python file -> where a document imports its module (``README.md:189 imports flute.tune``). ``module_path``:
    a dotted name -> its file, or None. ``from a.b import c`` names ``a.b``, and ``a.b.c`` when that is a module.
    A path a document names (``python stale/old_bench.py``) is no such use: documents go stale."""
    out: dict[str, str] = {}
    for rel in sorted(p for p in other_files if p.lower().endswith(_DOCS)):
        try:
            text = (root / rel).read_text(errors="replace")
        except OSError:
            continue
        for line, name in imported_names(text):
            if module_path(name) is None:
                continue
            parts = name.split(".")  # importing a.b.c runs a/__init__.py and a/b/__init__.py too
            for path in filter(None, (module_path(".".join(parts[:i])) for i in range(1, len(parts) + 1))):
                out.setdefault(path, f"{rel}:{line} imports {name}")
    return out
