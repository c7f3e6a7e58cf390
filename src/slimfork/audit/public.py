"""Public modules of a library: without a spec the audit cannot know which modules users import. A module of
an installable library package (build metadata at the root; a top-level package the tests import, as users
do) whose path is public (no ``_private`` part, no helper name such as ``utils``, not a test, benchmark,
example or script folder) may be imported by users even when nothing in the tree imports it, so it is reported
as "public, no internal user" at a low confidence, not as dead."""

from __future__ import annotations

import ast
import posixpath
import re
from fnmatch import fnmatchcase
from pathlib import Path

from slimfork.graph import ModuleGraph
from slimfork.source.installed_names import installed_patterns, matches
from slimfork.source.layout import SourceTree
from slimfork.source.package_find import find_patterns, literal_strings

CONFIDENCE = 40
_BUILD_FILES = ("pyproject.toml", "setup.py", "setup.cfg")
# Parts that make a path internal: helpers serve the package's own code, and tests, benchmarks, examples and
# scripts are no API.
_HELPER = re.compile(r"^(utils?|utilities|helpers?|common|internal|testing|compat|misc)$")
# a part naming tests (``tests``, ``test_x``, ``x_tests``, ``conftest``), as a word: crashtest 0.4.1's package
# ``crashtest`` held "test" and its public modules were called unreached (60)
TEST_PART = r"^(?:tests?|testing|testsuite|conftest|unittests?)$|^tests?_|_tests?$"
_NOT_API = re.compile(TEST_PART + r"|^bench|^(examples?|scripts?|tools|docs?|demos?)$")


def library_packages(tree: SourceTree, graph: ModuleGraph, tests: list[str]) -> set[str]:
    """Top-level packages of an installable tree that its tests import: regular ones and implicit namespace
    packages (google-cloud-core's ``google``, Megatron-LM's ``megatron``), whose modules users import by their own
    names; of them, where the build configuration lists what it installs, only those (typer 0.29.2's tests import
    ``docs_src``, which pdm-backend's ``source-includes`` ships in the sdist alone). A tree without test files: the
    top-level packages its build installs (``top_level.txt``, ...)."""
    if tree.dist is None and not any((tree.root / name).is_file() for name in _BUILD_FILES):
        return set()
    mm = graph.mm
    regular = {p for p in tree.packages if p in mm.modules and mm.modules[p].is_package}
    installed = installed_patterns(tree.root)
    if not tests:  # no test tells the library from tooling (jaraco.classes 3.4.0: doctests only): what is installed
        return {p for p in regular if installed and matches(p, installed)}
    if installed:
        regular = {p for p in regular if matches(p, installed)}
    out = set()
    for test in tests:
        for edge in graph.edges.get(mm.module_of(test) or "", ()):
            if edge.kind == "parent":
                continue
            top = edge.target.split(".")[0]
            if top in regular:
                out.add(top)
    return out


def library_package_of(module: str | None, packages: set[str]) -> str | None:
    """The library package ``module`` belongs to (the longest one naming it or a parent of it)."""
    if not module:
        return None
    return next((p for p in sorted(packages, key=len, reverse=True) if module == p or module.startswith(p + ".")),
                None)


def is_public_path(path: str, packages: set[str], module: str | None) -> bool:
    """Whether ``path`` (module ``module``) is a public module of one of the library ``packages``."""
    package = library_package_of(module, packages)
    if package is None or module is None:
        return False
    parts = module.split(".")
    if posixpath.basename(path) == "__main__.py" or _NOT_API.search(parts[0]):
        return False
    below = parts[package.count(".") + 1:]
    if below[:1] == ["testing"]:  # pkg.testing: what the library ships for its users' tests (typer.testing's
        below = below[1:]  # CliRunner, reached only from typer 0.29.2's tests, was to go with 179 of them at 50)
    return not any(p.startswith("_") or _HELPER.match(p) or _NOT_API.search(p) for p in below)


def is_documented(package: str) -> bool:
    """Whether a ``public`` value is a document's use (``documented_modules``: "README.md:189 imports x";
    ``copied_files``: "docs/guide.md:22 copies templates/x.py")."""
    return " imports " in package or " copies " in package


def public_note(package: str) -> str:
    if " copies " in package:
        return f"a documented template ({package}): users copy it though nothing in the tree runs it"
    if is_documented(package):
        return f"documented API ({package}): users import it though nothing in the tree does"
    return (f"a public module of the library package {package} (build files at the root; its tests import it, or, "
            "without tests, its build installs it): "
            "users may import it though nothing in the tree does; without a spec naming the roots, public, "
            "no internal user")


_FIND_PACKAGES = re.compile(r"\bfind_packages\s*\(|^\s*packages\s*=\s*find:", re.M)
_NAMESPACE_DISCOVERY = re.compile(r"find_namespace_packages|find_namespace:|namespaces\s*=\s*true|"
                                  r"\[tool\.(?:hatch|poetry|flit|pdm)|build-backend\s*=\s*[\"'](?!setuptools)", re.I)


def unshipped_folders(root: Path, python_paths: list[str]) -> set[str]:
    """Folders of Python files inside a regular package that have no ``__init__.py``, when the build finds its
    packages with ``find_packages()`` (``setup.py``, or ``packages = find:`` in ``setup.cfg``) and nothing asks for
    namespace packages: ``find_packages`` leaves them out of the distribution, so their modules are no public API
    (pytorch_spline_conv ``952a4ca^``: ``torch_spline_conv/old/*.py``, reported "public, no internal user" at 40).
    Empty when the build is unknown."""
    texts = []
    for name in _BUILD_FILES:
        try:
            texts.append((root / name).read_text(errors="replace"))
        except OSError:
            continue
    if not any(_FIND_PACKAGES.search(t) for t in texts) or any(_NAMESPACE_DISCOVERY.search(t) for t in texts):
        return set()
    present = set(python_paths)
    out = set()
    for path in python_paths:
        folder = posixpath.dirname(path)
        parent = posixpath.dirname(folder)
        if folder and parent and f"{folder}/__init__.py" not in present and f"{parent}/__init__.py" in present:
            out.add(folder)  # and every folder below it: callers test prefixes
    return out


def in_unshipped(path: str, folders: set[str]) -> bool:
    return any(path.startswith(folder + "/") for folder in folders)


def installed_packages(root: Path, packages: list[str]) -> set[str]:
    """The top-level ``packages`` the build at ``root`` installs: those a literal ``packages`` list names, or, where
    it finds them (``find_packages(exclude=[...])``, ``setup.cfg``'s ``[options.packages.find]``, ``pyproject.toml``'s
    ``[tool.setuptools.packages.find]``), each its literal ``exclude`` and ``include`` patterns let through, test,
    benchmark, example, script, tool and docs folders aside. Empty when the build is unknown."""
    listed = _setup_py_packages(root / "setup.py")
    if listed is not None:
        return {name.split(".")[0] for name in listed} & set(packages)
    patterns = find_patterns(root)
    if patterns is None:
        return set()
    include, exclude = patterns
    return {p for p in packages if not _NOT_API.search(p) and not any(fnmatchcase(p, x) for x in exclude)
            and (not include or any(fnmatchcase(p, x) for x in include))}


def _setup_py_packages(path: Path) -> list[str] | None:
    """A literal ``setup(packages=[...])`` of ``setup.py``; None when it has none."""
    try:
        tree = ast.parse(path.read_text(errors="replace"))
    except (OSError, SyntaxError, ValueError):
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "setup":
            listed = next((literal_strings(kw.value) for kw in node.keywords if kw.arg == "packages"), None)
            if listed is not None:
                return listed
    return None
