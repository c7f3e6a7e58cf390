"""Modules the project's documents show users importing: ``import flute.integrations.huggingface`` in a README's
code block, ``from flute.tune import TuneTask``; and files they tell users to copy (``cp templates/new_task.py
lm_eval/tasks/<task-name>.py``: a template to start from). Nothing in the tree may import them, but the documents
say users do: public API (40), whether or not the audit tells the tree for a library."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from pathlib import Path

from slimfork.source.doc_imports import imported_names

_DOCS = (".md", ".rst", ".markdown")
# a shell copy of a file or folder of the tree: `cp templates/new_task.py lm_eval/tasks/<name>.py`, `cp -r x/ y`
_COPY = re.compile(r"(?:^|[\s`$;&|(])cp\s+(?:-\w+\s+)*[\"']?([\w.][\w./-]*)[\"']?\s+\S", re.M)


def _documents(root: Path, other_files: list[str]) -> Iterator[tuple[str, str]]:
    """Each document of the tree (by its suffix) with its text."""
    for rel in sorted(p for p in other_files if p.lower().endswith(_DOCS)):
        try:
            yield rel, (root / rel).read_text(errors="replace")
        except OSError:
            continue


def documented_modules(root: Path, other_files: list[str], module_path) -> dict[str, str]:
    """Python file -> where a document imports its module (``README.md:189 imports flute.tune``). ``module_path``:
    a dotted name -> its file, or None. ``from a.b import c`` names ``a.b``, and ``a.b.c`` when that is a module.
    A path a document names (``python stale/old_bench.py``) is no such use: documents go stale."""
    out: dict[str, str] = {}
    for rel, text in _documents(root, other_files):
        for line, name in imported_names(text):
            if module_path(name) is None:
                continue
            parts = name.split(".")  # importing a.b.c runs a/__init__.py and a/b/__init__.py too
            for path in filter(None, (module_path(".".join(parts[:i])) for i in range(1, len(parts) + 1))):
                out.setdefault(path, f"{rel}:{line} imports {name}")
    return out


def copied_files(root: Path, other_files: list[str], python_paths: list[str]) -> dict[str, str]:
    """Python file -> where a document copies it (``docs/task_guide.md:22 copies templates/new_task.py``): the path
    from the document's folder or a folder above it (a vendored project's docs name paths from its own root)."""
    paths = set(python_paths)
    out: dict[str, str] = {}
    for rel, text in _documents(root, other_files):
        for match in _COPY.finditer(text):
            source = match.group(1).rstrip("/")
            line = text.count("\n", 0, match.start(1)) + 1
            folder = posixpath.dirname(rel)
            while True:
                target = posixpath.normpath(posixpath.join(folder, source))
                hits = [target] if target in paths else [p for p in python_paths if p.startswith(target + "/")]
                if hits and not target.startswith(".."):
                    for path in hits:
                        out.setdefault(path, f"{rel}:{line} copies {source}")
                    break
                if not folder:
                    break
                folder = posixpath.dirname(folder)
    return out
