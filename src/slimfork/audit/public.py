"""Public modules of a library: without a spec the audit cannot know which modules users import. A module of
an installable library package (build metadata at the root; a top-level package the tests import, as users
do) whose path is public (no ``_private`` part, no helper name such as ``utils``, not a test, benchmark,
example or script folder) may be imported by users even when nothing in the tree imports it, so it is reported
as "public, no internal user" at a low confidence, not as dead."""

from __future__ import annotations

import posixpath
import re

from slimfork.graph import ModuleGraph
from slimfork.source.layout import SourceTree

CONFIDENCE = 40
_BUILD_FILES = ("pyproject.toml", "setup.py", "setup.cfg")
# Parts that make a path internal: helpers serve the package's own code, and tests, benchmarks, examples and
# scripts are no API.
_HELPER = re.compile(r"^(utils?|utilities|helpers?|common|internal|testing|compat|misc)$")
_NOT_API = re.compile(r"test|^bench|^(examples?|scripts?|tools|docs?|demos?)$")


def library_packages(tree: SourceTree, graph: ModuleGraph, tests: list[str]) -> set[str]:
    """Top-level packages of an installable tree that its tests import: regular ones and implicit namespace
    packages (google-cloud-core's ``google``, Megatron-LM's ``megatron``), whose modules users import by their own
    names."""
    if tree.dist is None and not any((tree.root / name).is_file() for name in _BUILD_FILES):
        return set()
    mm = graph.mm
    regular = {p for p in tree.packages if p in mm.modules and mm.modules[p].is_package}
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
    return not any(p.startswith("_") or _HELPER.match(p) or _NOT_API.search(p) for p in parts[package.count(".") + 1:])


def public_note(package: str) -> str:
    return (f"a public module of the library package {package} (build files at the root, its tests import it): "
            "users may import it though nothing in the tree does; without a spec naming the roots, public, "
            "no internal user")
