"""Modules the project's documents show users importing: ``import flute.integrations.huggingface`` in a README's
code block, ``from flute.tune import TuneTask``. Nothing in the tree may import them, but the documents say users
do: public API (40), whether or not the audit tells the tree for a library. So are files a document names by
path (``cp templates/new_task.py ...``)."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

_DOCS = (".md", ".rst", ".markdown")
_PATH = re.compile(r"(?<![\w/.-])((?:\.{0,2}/)?[\w.-]+(?:/[\w.-]+)*/[\w-]+\.py)\b")
_IMPORT = re.compile(r"^[\s>+]*(?:from\s+([A-Za-z_][\w.]*)\s+import\s+([\w, ()]+)|import\s+([A-Za-z_][\w.]*))", re.M)


def documented_modules(root: Path, other_files: list[str], module_path, python_paths: set[str]) -> dict[str, str]:
    """Python file -> where a document imports its module (``README.md:189 imports flute.tune``) or names it by a
    path with a folder (``cp templates/new_task.py lm_eval/tasks/x.py``: users copy or run it), from the document's
    folder or one above it. ``module_path``: a dotted name -> its file, or None. ``from a.b import c`` names ``a.b``,
    and ``a.b.c`` when that is a module."""
    out: dict[str, str] = {}
    for rel in sorted(p for p in other_files if p.lower().endswith(_DOCS)):
        try:
            text = (root / rel).read_text(errors="replace")
        except OSError:
            continue
        for match in _IMPORT.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            base = match.group(1) or match.group(3)
            names = [base] + [f"{base}.{n.strip()}" for n in (match.group(2) or "").strip("() ").split(",")
                              if n.strip().isidentifier()]
            for name in names:
                if module_path(name) is None:
                    continue
                parts = name.split(".")  # importing a.b.c runs a/__init__.py and a/b/__init__.py too
                for path in filter(None, (module_path(".".join(parts[:i])) for i in range(1, len(parts) + 1))):
                    out.setdefault(path, f"{rel}:{line} imports {name}")
        bases = [rel]  # the document's folder and those above it (a docs/ page of a project in a subfolder)
        while bases[-1]:
            bases.append(posixpath.dirname(bases[-1]))
        for match in _PATH.finditer(text):
            for path in (posixpath.normpath(posixpath.join(base, match.group(1))) for base in bases[1:]):
                if path in python_paths and path not in out:
                    out[path] = f"{rel}:{text.count(chr(10), 0, match.start()) + 1} names it by path"
    return out
