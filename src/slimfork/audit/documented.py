"""Modules the project's documents show users importing: ``import flute.integrations.huggingface`` in a README's
code block, ``from flute.tune import TuneTask``; and files they tell users to copy (``cp templates/new_task.py
lm_eval/tasks/<task-name>.py``: a template to start from). Nothing in the tree may import them, but the documents
say users do: public API (40), whether or not the audit tells the tree for a library."""

from __future__ import annotations

import json
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
    A path a document names (``python stale/old_bench.py``) is no such use: documents go stale. A notebook's code
    cells count too, and, as Jupyter runs it in its own folder, a module beside it by its plain name (varname
    1.0.0's ``playground/playground.ipynb`` imports ``module_all_calls``: its ``playground/`` was unreached at 70)."""
    out: dict[str, str] = {}
    documents = list(_documents(root, other_files)) + list(_notebooks(root, other_files))
    for rel, text in documents:
        beside = _beside(root, posixpath.dirname(rel)) if rel.endswith(".ipynb") else (lambda name: None)
        for line, name in imported_names(text):
            where = f"{rel}:{line}" if not rel.endswith(".ipynb") else f"{rel} (its code, line {line})"
            parts = name.split(".")  # importing a.b.c runs a/__init__.py and a/b/__init__.py too
            for find in (module_path, beside):
                if find(name) is None:
                    continue
                for path in filter(None, (find(".".join(parts[:i])) for i in range(1, len(parts) + 1))):
                    out.setdefault(path, f"{where} imports {name}")
                break
    return out


def _notebooks(root: Path, other_files: list[str]) -> Iterator[tuple[str, str]]:
    """Each Jupyter notebook of the tree with the source of its code cells, one after another."""
    for rel in sorted(p for p in other_files if p.lower().endswith(".ipynb")):
        try:
            cells = json.loads((root / rel).read_text(errors="replace")).get("cells", [])
            code = ["".join(c["source"]) if isinstance(c.get("source"), list) else str(c.get("source", ""))
                    for c in cells if isinstance(c, dict) and c.get("cell_type") == "code"]
        except (OSError, ValueError, AttributeError, TypeError):
            continue
        yield rel, "\n".join(code)


def _beside(root: Path, folder: str):
    """A dotted name -> its file in ``folder`` (a module or package there), or None."""
    def find(name: str) -> str | None:
        base = posixpath.join(folder, *name.split("."))
        for rel in (f"{base}.py", f"{base}/__init__.py"):
            if (root / rel).is_file():
                return rel
        return None
    return find


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
