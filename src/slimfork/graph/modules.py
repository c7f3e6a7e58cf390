"""Module names for files, and resolution of import statements to modules of the tree."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from slimfork.index.build import Index
from slimfork.index.relative import absolute_module, package_of
from slimfork.index.summary import ImportEdge
from slimfork.source.layout import SourceTree


@dataclass(frozen=True)
class ModuleInfo:
    name: str
    path: str | None  # relative posix path of its file; None for an implicit namespace package
    is_package: bool

    @property
    def own_package(self) -> str:
        """What ``__package__`` is in this module: itself for a package, else its parent."""
        return self.name if self.is_package else self.name.rpartition(".")[0]

    def fill_own(self, text: str) -> str:
        """``{__name__}.ops`` / ``{__package__}.impl`` (slimfork.index.own_names) with this module's names;
        ``{__parent__}``: ``__name__.rsplit(".", 1)[0]``; ``{__package__}..plugins``: ``plugins`` of the package
        above (a relative import of code held as text). Where this package has too few parts for the dots (``from
        ...plugins import alpha`` held in ``pkg`` and run by ``exec`` in a deeper package), the code runs under
        another package: ``*.plugins``, every module so named (unknown means keep)."""
        out = text.replace("{__name__}", self.name).replace("{__package__}", self.own_package).replace(
            "{__parent__}", self.name.rpartition(".")[0])
        if ".." not in out or "{__package__}.." not in text:
            return out
        head, _, tail = out.partition("..")  # {__package__}..plugins: a relative import a package up
        parts, up = head.split("."), len(tail) - len(tail.lstrip(".")) + 1
        if len(parts) <= up:  # a prefix (``{__package__}...plugins.``, a template's): every module under each
            return "*." + tail.lstrip(".") + ("*" if tail.endswith(".") else "")
        return ".".join(parts[:-up] + [tail.lstrip(".")]).strip(".")


@dataclass
class ModuleMap:
    """Every module of the tree: files under the packages, implicit namespace packages, and other .py files
    (scripts, tests) under a name derived from their path."""

    modules: dict[str, ModuleInfo] = field(default_factory=dict)
    by_path: dict[str, str] = field(default_factory=dict)
    top_names: set[str] = field(default_factory=set)  # first components that count as internal
    beside: set[str] = field(default_factory=set)  # of those, packages at the top beside src/ (tests/): no library
    children: dict[str, list[str]] = field(default_factory=dict)
    all_names: dict[str, list[str]] = field(default_factory=dict)  # literal __all__ per module
    all_dynamic: set[str] = field(default_factory=set)  # modules whose __all__ is built at run time
    resolved_cache: dict = field(default_factory=dict, repr=False)

    def module_of(self, path: str) -> str | None:
        return self.by_path.get(path)

    def is_internal(self, dotted: str) -> bool:
        return dotted.split(".", 1)[0] in self.top_names

    def matching(self, pattern: str) -> list[str]:
        """The modules a dotted name with ``*`` wildcards names (``pkg.backends._*.ops``)."""
        regex = re.compile(".+".join(map(re.escape, pattern.split("*"))))
        head = pattern.split("*", 1)[0]
        return sorted(m for m in self.modules if m.startswith(head) and regex.fullmatch(m))

    def code_import_targets(self, info: ModuleInfo, text: str) -> list[str]:
        """What a relative import of code held as text names (``{__package__}...plugins.alpha``), resolved against
        ``info``'s package; where that names no module of the tree (the code runs under another package, ``exec``
        with a deeper ``__package__``), every module ending so (``*.plugins.alpha``: unknown means keep)."""
        out = info.fill_own(text)
        if "{__package__}.." in text and "*" not in out and out not in self.modules \
                and out.rpartition(".")[0] not in self.modules:
            out = "*." + text.split("..", 1)[1].lstrip(".")
        return self.matching(out) if "*" in out else [out]

    def longest_module(self, dotted: str) -> str | None:
        """The longest prefix of ``dotted`` that is a module ("a.b.Class.attr" -> "a.b")."""
        parts = dotted.split(".")
        for i in range(len(parts), 0, -1):
            name = ".".join(parts[:i])
            if name in self.modules:
                return name
        return None

    def descendants(self, package: str) -> list[str]:
        prefix = package + "."
        return sorted(name for name in self.modules if name.startswith(prefix))


def build_module_map(tree: SourceTree, index: Index) -> ModuleMap:
    mm = ModuleMap()
    py_prefix = tree.relpath(tree.python_root) if tree.python_root != tree.root else ""
    py_prefix = (py_prefix + "/") if py_prefix else ""
    packages = set(tree.packages)
    for rel in index.files:
        inner = rel[len(py_prefix):] if rel.startswith(py_prefix) else None
        if inner is not None and inner.split("/", 1)[0].removesuffix(".py") in packages:
            name_path = inner
        else:
            name_path = rel  # scripts, tests and other files outside the packages
        parts = tuple(name_path[:-3].split("/"))  # index.files holds .py files only
        if not all(p.isidentifier() for p in parts):
            continue
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        if not parts:
            continue
        name = ".".join(parts)
        mm.modules[name] = ModuleInfo(name, rel, is_package)
        mm.by_path[rel] = name
        all_names = index.files[rel].all_names
        if all_names:
            mm.all_names[name] = all_names
        if index.files[rel].all_dynamic:
            mm.all_dynamic.add(name)
    for name in list(mm.modules):  # implicit namespace packages: parents without an __init__.py
        parts = tuple(name.split("."))
        for i in range(1, len(parts)):
            parent = ".".join(parts[:i])
            if parent not in mm.modules:
                mm.modules[parent] = ModuleInfo(parent, None, True)
    for name in mm.modules:
        if "." in name:
            mm.children.setdefault(name.rsplit(".", 1)[0], []).append(name)
    mm.top_names = set(packages)
    if py_prefix:  # a regular package at the source's top beside src/ (webargs' tests/, run from the top as
        # `from tests.apps.aiohttp_app import create_app`): its absolute imports resolve to its files
        mm.beside = {rel.split("/", 1)[0] for rel in index.files if not rel.startswith(py_prefix)
                     and rel.endswith("/__init__.py") and rel.count("/") == 1
                     and rel.split("/", 1)[0].isidentifier()} - mm.top_names
        mm.top_names |= mm.beside
    return mm


@dataclass(frozen=True)
class Resolved:
    targets: tuple[str, ...]  # modules this statement imports (parents included)
    missing: tuple[str, ...]  # internal names it asks for that are not in the tree


def resolve_import(mm: ModuleMap, module: str, edge: ImportEdge) -> Resolved:
    info = mm.modules.get(module)
    if edge.kind in ("import", "dynamic", "string") and edge.level == 0:
        return _absolute(mm, edge.module or "", edge.kind)
    base = edge.module or ""
    if edge.level:
        package = package_of(module, info is not None and info.is_package)
        if edge.level - 1 > len(package.split(".") if package else []):
            return Resolved((), (f"{'.' * edge.level}{base} (beyond top-level package)",))
        base = absolute_module(package, edge.level, edge.module) or ""
    # a relative import names a module of the importer's own package, also one outside the top-level packages (a
    # benchmarks/fvd/ package a script imports: `from .video_utils import x`)
    if not base or not (mm.is_internal(base) or edge.level and base.split(".", 1)[0] in mm.modules):
        return Resolved((), ())
    targets, missing = list(_parents(mm, base)), []
    if base not in mm.modules:
        if not foreign_part(mm, base):
            missing.append(base)
        return Resolved(tuple(targets), tuple(missing))
    for name in edge.names:
        if name == "*":
            targets.extend(_star_submodules(mm, base))
            continue
        sub = f"{base}.{name}"
        if sub in mm.modules:
            targets.append(sub)
    return Resolved(tuple(dict.fromkeys(targets)), tuple(missing))


def _absolute(mm: ModuleMap, dotted: str, kind: str) -> Resolved:
    key = (dotted, kind == "string")
    hit = mm.resolved_cache.get(key)
    if hit is None:
        hit = mm.resolved_cache[key] = _absolute_uncached(mm, dotted, kind)
    return hit


def _absolute_uncached(mm: ModuleMap, dotted: str, kind: str) -> Resolved:
    if not dotted or not mm.is_internal(dotted):
        return Resolved((), ())
    targets = list(_parents(mm, dotted))
    if dotted not in mm.modules:
        longest = mm.longest_module(dotted)
        if kind == "string":  # "pkg.mod.Class" names a module through its longest prefix
            return Resolved(tuple(targets), ())
        return Resolved(tuple(targets), (dotted,) if longest != dotted and not foreign_part(mm, dotted) else ())
    return Resolved(tuple(targets), ())


def foreign_part(mm: ModuleMap, dotted: str) -> bool:
    """Whether ``dotted``, which the tree lacks, sits below a top-level implicit namespace package of the tree
    (every package above it without an ``__init__.py``: ``google.auth`` beside google-cloud-core's
    ``google/cloud/``): another distribution installs that part of the namespace, so the import is no missing
    module but an outside one. A namespace folder inside a regular package is not open to other distributions."""
    parts = dotted.split(".")
    longest = mm.longest_module(dotted)
    if longest is None or longest == dotted:
        return False
    depth = longest.count(".") + 1
    return all(mm.modules[".".join(parts[:i])].path is None for i in range(1, depth + 1))


def _parents(mm: ModuleMap, dotted: str):
    parts = dotted.split(".")
    for i in range(1, len(parts) + 1):
        name = ".".join(parts[:i])
        if name in mm.modules:
            yield name


def _star_submodules(mm: ModuleMap, package: str) -> list[str]:
    """``from pkg import *`` imports the submodules that pkg's ``__all__`` names; every submodule of pkg when its
    ``__all__`` is built at run time (``for m in MODS: __all__.append(m)``: unknown means keep)."""
    if package in mm.all_dynamic:
        return sorted(mm.children.get(package, ()))
    return [f"{package}.{n}" for n in mm.all_names.get(package, ()) if f"{package}.{n}" in mm.modules]
