"""Modules a command imports through ``PYTHONPATH``: aphrodite-engine's ``CMakeLists.txt`` runs
``PYTHONPATH=${CMAKE_CURRENT_SOURCE_DIR}/kernels/cutlass_extensions/:$PYTHONPATH python .../machete/generate.py``,
whose ``from aphrodite_cutlass_library_extension import ...`` resolves to a file of that folder, which the tree
names ``kernels.cutlass_extensions.aphrodite_cutlass_library_extension``. A top-level module of a folder a command
file (``audit.toolrun.command_files``) puts on ``PYTHONPATH`` that a Python file of the tree imports by its own
name is run like the tool's other files (30). The tree's root (``PYTHONPATH=.``) is no such folder: its modules'
names are the tree's already."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Set as AbstractSet
from pathlib import Path

from slimfork.audit.toolrun import command_files

_ASSIGN = re.compile(r"""\bPYTHONPATH["']?\s*[=:]\s*["']?([^\s"';]+)""")
_HERE = re.compile(r"^(?:\$\{?(?:CMAKE_CURRENT_SOURCE_DIR|CMAKE_CURRENT_LIST_DIR|PWD|SCRIPT_DIR)\}?|\$\(pwd\))/")
_ROOT = re.compile(r"^\$\{?(?:CMAKE_SOURCE_DIR|PROJECT_SOURCE_DIR|GITHUB_WORKSPACE)\}?/")


def pythonpath_modules(root: Path, candidates: AbstractSet[str], imported: AbstractSet[str]) -> dict[str, str]:
    """Of ``candidates`` (files nothing reaches), those a command imports through ``PYTHONPATH``: path -> why.
    ``imported``: the top-level names the tree's Python files import absolutely."""
    out: dict[str, str] = {}
    for rel in command_files(root):
        try:
            text = (root / rel).read_text(errors="replace")
        except OSError:
            continue
        if "PYTHONPATH" not in text:
            continue
        here = posixpath.dirname(rel)
        for match in _ASSIGN.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            for entry in match.group(1).split(":"):
                for base in _folders(entry, here):
                    for name in imported:
                        for path in (f"{base}/{name}.py", f"{base}/{name}/__init__.py"):
                            if path in candidates:
                                out.setdefault(path, f"{rel}:{line} puts {base}/ on PYTHONPATH and a Python file "
                                                     f"imports {name}: the command runs it")
    return out


def _folders(entry: str, here: str) -> list[str]:
    """The tree folders a ``PYTHONPATH`` entry may be (from the command file's folder, or the root)."""
    if _ROOT.match(entry):
        bases = [_ROOT.sub("", entry)]
    elif _HERE.match(entry):
        rest = _HERE.sub("", entry)
        bases = [posixpath.join(here, rest), rest]
    elif "$" in entry or "%" in entry or entry.startswith(("/", "~")):
        return []
    else:
        bases = [posixpath.join(here, entry), entry]
    out = []
    for base in bases:
        base = posixpath.normpath(base)
        if base not in (".", "") and not base.startswith("..") and base not in out:
            out.append(base)
    return out
