"""The tree the audit reads when given a folder without a spec.

A C++/CUDA library whose Python bindings are a distribution of their own in a subfolder (CTranslate2's
``python/setup.py`` building the package ``python/ctranslate2``; no ``pyproject.toml``, ``setup.py`` or
``setup.cfg`` at the root) is read with that subfolder as the Python root: otherwise ``python`` is taken for a
namespace package, ``from ctranslate2 import converters`` resolves to nothing and the whole package is
"unreached" (CTranslate2 ``6fc333fc^``: ``converters/``, ``models/``, ``specs/`` at 70).
"""

from __future__ import annotations

import configparser
import posixpath
import re
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


_PROJECT_TABLE = re.compile(r"^\[(?:project|tool\.poetry)\]", re.M)


def nested_distribution_files(root: Path, python_paths: list[str], module_of) -> dict[str, str]:
    """Python files of a package that a distribution in a subfolder builds (AQLM's ``inference_lib/setup.cfg``,
    ``package_dir = src``, building ``aqlm`` from ``inference_lib/src/aqlm/``) where the tree's module names
    do not give the package its own name (``inference_lib.src.aqlm``): its files import each other as
    ``aqlm.utils``, which resolves to nothing here, so what they reach is unknown. Users install that
    distribution and import its package: its files count as roots (unknown means keep). The package is looked
    for in the folder, its ``src/`` and its ``python/`` (LightX2V's ``lightx2v_kernel/pyproject.toml``,
    ``wheel.packages = ["python/lightx2v_kernel"]``). path -> why."""
    out: dict[str, str] = {}
    folders = sorted({"/".join(parts[:i]) for p in python_paths if "/" in p
                      for parts in [p.split("/")[:-1]] for i in range(1, min(len(parts), 4) + 1)})
    for folder in folders:
        if any(part in _NOT_BINDINGS or part.startswith(".") for part in folder.split("/")):
            continue  # an example's, a test's or a vendored project's own setup (mlx's examples/extensions/)
        build = _build_file(root / folder)
        if build is None:
            continue
        for base in (folder + "/src", folder + "/python", folder):  # python/: scikit-build's wheel.packages
            if not (root / base).is_dir():
                continue
            for pkg in sorted((root / base).iterdir()):
                if not (pkg / "__init__.py").is_file() or pkg.name in _NOT_BINDINGS or not pkg.name.isidentifier():
                    continue
                prefix = f"{base}/{pkg.name}/"
                init = prefix + "__init__.py"
                if module_of(init) == pkg.name:  # the tree names it as its users do: imports resolve
                    continue
                for p in python_paths:
                    if p.startswith(prefix):
                        out[p] = f"a module of the package {pkg.name}, which {folder}/{build} builds as a " \
                                 f"distribution of its own: its imports ({pkg.name}.*) are not resolved here"
    return out


def _build_file(folder: Path) -> str | None:
    """The build file of a distribution in ``folder``: a setup.py calling setup(), a setup.cfg with [metadata] name,
    or a pyproject.toml with a [project] (or poetry) table."""
    try:
        if (folder / "setup.py").is_file() and "setup(" in (folder / "setup.py").read_text(errors="replace"):
            return "setup.py"
        if (folder / "setup.cfg").is_file():
            cfg = configparser.ConfigParser(interpolation=None)
            cfg.read_string((folder / "setup.cfg").read_text(errors="replace"))
            if cfg.has_option("metadata", "name"):
                return "setup.cfg"
        if (folder / "pyproject.toml").is_file() and _PROJECT_TABLE.search(
                (folder / "pyproject.toml").read_text(errors="replace")):
            return "pyproject.toml"
    except (OSError, configparser.Error):
        return None
    return None
