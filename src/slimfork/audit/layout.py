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
from slimfork.graph.modules import ModuleInfo, ModuleMap, build_module_map
from slimfork.source.build_scripts import named_build_script
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


def nested_packages(root: Path, python_paths: list[str], module_of, main: set[str] | frozenset[str] = frozenset()
                    ) -> dict[str, tuple[str, str]]:
    """Packages that a distribution in a subfolder builds (AQLM's ``inference_lib/setup.cfg``, ``package_dir =
    src``, building ``aqlm`` from ``inference_lib/src/aqlm/``) where the tree's module names do not give the
    package its own name (``inference_lib.src.aqlm``, or none in a folder whose name is no identifier:
    FastVideo's ``fastvideo-kernel/python/fastvideo_kernel/``). The package is looked for in the folder, its
    ``src/`` and its ``python/`` (LightX2V's ``lightx2v_kernel/pyproject.toml``, ``wheel.packages =
    ["python/lightx2v_kernel"]``); ``main``: the tree's own top-level packages, named as their users name them.
    The package's folder with a trailing slash -> (its name, the build file)."""
    out: dict[str, tuple[str, str]] = {}
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
                if pkg.name in main and module_of(f"{base}/{pkg.name}/__init__.py") == pkg.name:
                    continue  # the tree names it as its users do: imports resolve
                out[f"{base}/{pkg.name}/"] = (pkg.name, f"{folder}/{build}")
    return out


def nested_distribution_files(root: Path, python_paths: list[str], module_of,
                              main: set[str] | frozenset[str] = frozenset()) -> dict[str, str]:
    """Python files of the packages :func:`nested_packages` finds: users install that distribution and import its
    package, so its files count as roots (unknown means keep); of a distribution folder of the package's own name
    (:func:`_own_folder`), only the ``__init__.py``. path -> why."""
    out: dict[str, str] = {}
    for prefix, (name, build) in nested_packages(root, python_paths, module_of, main).items():
        if _own_folder(prefix, name, build, module_of):  # audited like the main package
            out[prefix + "__init__.py"] = f"the package {name}, which {build} builds as a distribution of its own"
            continue
        named = module_of(prefix + "__init__.py") == name
        for p in python_paths:
            if p.startswith(prefix):
                out[p] = f"a module of the package {name}, which {build} builds as a distribution of its own" + (
                    "" if named else f": its imports ({name}.*) are not resolved here")
    return out


def nested_library_packages(root: Path, python_paths: list[str], module_of) -> set[str]:
    """The packages of distribution folders of their own name (:func:`_own_folder`): library packages like the main
    one (an unreached public module is public API, 40)."""
    return {name for prefix, (name, build) in nested_packages(root, python_paths, module_of).items()
            if _own_folder(prefix, name, build, module_of)}


def _own_folder(prefix: str, name: str, build: str, module_of) -> bool:
    """Whether the package at ``prefix`` is the one of a distribution folder of its own name at the root
    (``cuequivariance/pyproject.toml``, ``cuequivariance/cuequivariance/``), named so by the module map: such a
    distribution is the repository's own library. Others (a vendored ``lm-evaluation-harness/``, FastVideo's
    ``fastvideo-kernel/``) keep every file a root."""
    return posixpath.dirname(build) == name and prefix == f"{name}/{name}/" \
        and module_of(prefix + "__init__.py") == name


def audit_module_map(tree: SourceTree, index) -> ModuleMap:
    """The tree's module map, where the package of a distribution in a subfolder whose folder names give its files
    no module name (``fastvideo-kernel/python/fastvideo_kernel/``) has its own name, when the tree has no module of
    that name: the main package's imports of it (``from fastvideo_kernel import ops``) and its own resolve."""
    mm = build_module_map(tree, index)
    paths = list(index.files)
    for prefix, (name, _build) in nested_packages(tree.root, paths, mm.module_of, set(tree.packages)).items():
        files = [p for p in paths if p.startswith(prefix)]
        if not _free_name(mm, name, posixpath.dirname(_build), files):
            continue  # the name is taken, or the files have names: left as they are
        for rel in files:
            parts = [name, *rel[len(prefix):-3].split("/")]
            if not all(part.isidentifier() for part in parts):
                continue
            is_package = parts[-1] == "__init__"
            module = ".".join(parts[:-1] if is_package else parts)
            mm.modules[module] = ModuleInfo(module, rel, is_package)
            mm.by_path[rel] = module
            if index.files[rel].all_names:
                mm.all_names[module] = index.files[rel].all_names
            if "." in module:
                mm.children.setdefault(module.rsplit(".", 1)[0], []).append(module)
        for module in [m for m in mm.modules if m.startswith(name + ".")]:  # folders without an __init__.py
            for i in range(1, module.count(".") + 1):
                parent = ".".join(module.split(".")[:i])
                if parent not in mm.modules:
                    mm.modules[parent] = ModuleInfo(parent, None, True)
                    if "." in parent:
                        mm.children.setdefault(parent.rsplit(".", 1)[0], []).append(parent)
        mm.top_names.add(name)
    return mm


def _free_name(mm: ModuleMap, name: str, folder: str, files: list[str]) -> bool:
    """Whether the package of ``files`` can take ``name``: no module has it, or only the distribution's own
    ``folder`` does (cuEquivariance's ``cuequivariance/pyproject.toml`` beside the package
    ``cuequivariance/cuequivariance/``: the files were ``cuequivariance.cuequivariance.*``, their imports of
    ``cuequivariance.*`` resolved to nothing, and they were all roots). The folder's namespace names of the
    package's files are dropped; its other files (``cuequivariance/tests/``) keep theirs, unless one of them is a
    name the package takes."""
    if name not in mm.modules:
        return not any(mm.module_of(p) is not None for p in files)
    own = {m for m, info in mm.modules.items() if (m == name or m.startswith(name + ".")) and
           (info.path is None or not info.path.startswith(folder + "/"))}
    if folder != name or mm.modules[name].path is not None or own - {m for m in own if mm.modules[m].path is None}:
        return False  # a module of that name elsewhere, or the folder is a package itself
    old = {m for p in files if (m := mm.module_of(p)) is not None}
    double = f"{name}.{name}"
    if not all(m == double or m.startswith(double + ".") for m in old):
        return False
    kept = {m for m in mm.modules if m.startswith(name + ".") and not (m == double or m.startswith(double + "."))}
    new = {name + "." + p[len(folder) + len(name) + 2:-3].replace("/", ".").removesuffix(".__init__") for p in files}
    if kept & new:
        return False
    for m in [m for m in mm.modules if m == double or m.startswith(double + ".")]:
        info = mm.modules.pop(m)
        mm.by_path.pop(info.path or "", None)
        mm.all_names.pop(m, None)
        mm.children.pop(m, None)
    mm.children[name] = [c for c in mm.children.get(name, []) if c != double]
    return True


def unimported_packages(tree: SourceTree, index) -> dict[str, str]:
    """Top-level packages of a tree that builds no distribution at its root (no ``setup()``, no ``[project]``:
    a research repository's folder of packages its scripts import) that no Python file outside them imports,
    where another package has such a user: nothing installs them and nothing in the tree uses them, so they are no
    roots (AQLM ``d0f6ed4^``: ``cpp_kernel/``, imported only by a notebook, beside ``src/``, which ``main.py``
    imports). Package -> a note: the notebooks that import it (run by hand),
    or "" when none does."""
    if tree.dist is not None or any(_build_file(folder) is not None or (folder / "setup.py").is_file()
                                    for folder in {tree.root, tree.python_root}):
        return {}  # a distribution (or bindings one, CTranslate2's python/setup.py) installs its packages
    imported: set[str] = set()
    for rel, summary in index.files.items():
        imported |= {imp.module.split(".")[0] for imp in summary.imports if imp.module and not imp.level
                     and not rel.startswith(imp.module.split(".")[0] + "/")}
    if not imported & set(tree.packages):
        return {}  # no package has a user in the tree: the packages themselves are what it offers
    out = {}
    for pkg in tree.packages:
        if pkg in imported or not (tree.python_root / pkg / "__init__.py").is_file():
            continue
        pattern = re.compile(r"\b(?:import|from)\s+%s\b" % re.escape(pkg))
        books = sorted(p.relative_to(tree.root).as_posix() for p in tree.root.rglob("*.ipynb")
                       if not any(part.startswith(".") for part in p.relative_to(tree.root).parts)
                       and pattern.search(p.read_text(errors="replace")))
        out[pkg] = f"only notebooks import it ({', '.join(books[:3])}), which are run by hand" if books else ""
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
    return named_build_script(folder)  # build.py calling setuptools' setup(): a build script by another name
