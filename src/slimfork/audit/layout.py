"""The tree the audit reads when given a folder without a spec.

A C++/CUDA library whose Python bindings are a distribution of their own in a subfolder (CTranslate2's
``python/setup.py`` building the package ``python/ctranslate2``; no ``pyproject.toml``, ``setup.py`` or
``setup.cfg`` at the root) is read with that subfolder as the Python root: otherwise ``python`` is taken for a
namespace package, ``from ctranslate2 import converters`` resolves to nothing and the whole package is
"unreached" (CTranslate2 ``6fc333fc^``: ``converters/``, ``models/``, ``specs/`` at 70).
"""

from __future__ import annotations

from pathlib import Path

from slimfork.errors import SpecError
from slimfork.source.layout import SKIP_DIRS, SourceTree, find_packages, open_tree, read_distribution, top_level_names

_BUILD_FILES = ("pyproject.toml", "setup.py", "setup.cfg")
_NOT_BINDINGS = {"tests", "test", "docs", "doc", "examples", "example", "benchmarks", "benchmark", "scripts",
                 "tools", "third_party", "thirdparty", "vendor", "external", "extern", "3rdparty", "deps"}


def bindings_root(root: Path) -> str | None:
    """The one direct subfolder holding a Python distribution (a build file beside a regular package), when the
    root has no build file, no distribution metadata and no ``src/`` packages; when none does, the one such folder
    one level further down (``bindings/torch``); else None."""
    if any((root / name).is_file() for name in _BUILD_FILES + ("PKG-INFO",)) or any(root.glob("*.dist-info")):
        return None
    if (root / "src").is_dir() and top_level_names(root, root / "src"):
        return None
    found = _distributions(root, root)
    if not found:  # tiny-cuda-nn: bindings/torch/setup.py building the package bindings/torch/tinycudann
        for entry in sorted(root.iterdir()):
            if _candidate(entry) and not any((entry / name).is_file() for name in _BUILD_FILES):
                found += _distributions(root, entry)
    return found[0] if len(found) == 1 else None


def _candidate(entry: Path) -> bool:
    return entry.is_dir() and not entry.name.startswith(".") and entry.name not in SKIP_DIRS \
        and entry.name not in _NOT_BINDINGS


def _distributions(root: Path, folder: Path) -> list[str]:
    """The direct subfolders of ``folder`` holding a build file beside a regular package (paths from ``root``)."""
    found = []
    for entry in sorted(folder.iterdir()):
        if not _candidate(entry):
            continue
        if not any((entry / name).is_file() for name in ("pyproject.toml", "setup.py")):
            continue
        if any((entry / pkg / "__init__.py").is_file() for pkg in find_packages(entry) if pkg not in _NOT_BINDINGS):
            found.append(entry.relative_to(root).as_posix())
    return found


def audit_tree(root: Path) -> SourceTree:
    """``open_tree(root)``, with the bindings subfolder as the Python root where :func:`bindings_root` finds one.
    A tree with no Python package at all (ThunderKittens: a header library, a ``setup.py`` building one extension
    from ``config.py``'s lists, kernels and tests with scripts beside them) is still audited: its roots are the
    build scripts, tests and scripts, and its native sources are judged by what builds, loads or includes them."""
    sub = bindings_root(root)
    if sub is not None:
        return open_tree(root, sub)
    try:
        return open_tree(root)
    except SpecError:
        if not any(root.rglob("*.py")):  # nothing to audit: the folder is likely the wrong one
            raise
        return SourceTree(root, root, [], read_distribution(root), "folder")
