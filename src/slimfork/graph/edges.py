"""Edges of the module graph: imports, dynamic imports, module-naming strings, registries and directory scans."""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from typing import NamedTuple

from slimfork.graph.modules import ModuleMap, resolve_import
from slimfork.index.build import Index
from slimfork.index.summary import ImportEdge
from slimfork.plan.model import Uncertain
from slimfork.spec.model import RegistrySpec


class Edge(NamedTuple):
    target: str
    kind: str  # "import", "from", "parent", "dynamic", "string", "registry", "scan", "main"
    line: int = 0
    detail: str = ""  # condition, registry pattern, call text


@dataclass(frozen=True)
class MissingImport:
    module: str
    path: str
    line: int
    target: str


def build_edges(mm: ModuleMap, index: Index, registries: list[RegistrySpec], type_checking: bool = True):
    edges: dict[str, list[Edge]] = {name: [] for name in mm.modules}
    missing: list[MissingImport] = []
    uncertain: list[Uncertain] = []
    type_only: dict[str, list[tuple[str, int]]] = {}  # target -> (importer, line) of skipped TYPE_CHECKING imports
    for name, info in mm.modules.items():
        out = edges[name]
        if "." in name:
            out.append(Edge(name.rsplit(".", 1)[0], "parent", 0, "a module's parent package is imported first"))
        if info.path is None:
            continue
        summary = index.files[info.path]
        covered = _covering_registry(name, info, registries) if summary.dir_scans else None
        for imp in summary.imports:
            resolved = resolve_import(mm, name, imp)
            if imp.type_checking and not type_checking:
                for target in resolved.targets:
                    type_only.setdefault(target, []).append((name, imp.line))
                continue
            where = _where(imp) if imp.scope != "module" or imp.condition or imp.type_checking else ""
            for target in resolved.targets:
                if target != name:
                    out.append(Edge(target, imp.kind, imp.line, where))
            for target in resolved.missing:
                missing.append(MissingImport(name, info.path, imp.line, target))
        for dyn in summary.dynamic_imports:
            target = dyn.target
            if target and "{__" in target:  # f"{__name__}.{group}": this module's name (or its package's)
                package = name if info.is_package else name.rpartition(".")[0]
                target = target.replace("{__name__}", name).replace("{__package__}", package)
            if target and target.startswith(".") and dyn.package:
                target = _relative(dyn.package, target)
            if target and not dyn.prefix:
                resolved = resolve_import(mm, name, ImportEdge(target, 0, (), dyn.line, "dynamic"))
                out.extend(Edge(t, "dynamic", dyn.line, dyn.text) for t in resolved.targets if t != name)
                if not resolved.targets and mm.is_internal(target):
                    missing.append(MissingImport(name, info.path, dyn.line, target))
            elif target and mm.is_internal(target):
                prefix_mods = [m for m in mm.modules if m.startswith(target)]
                out.extend(Edge(m, "dynamic", dyn.line, f"{dyn.text} (prefix '{target}')") for m in prefix_mods)
                uncertain.append(Uncertain(info.path, dyn.line, dyn.text,
                                           f"dynamic import with prefix '{target}': kept all {len(prefix_mods)} "
                                           "modules it may name"))
            elif covered is not None:
                continue  # the registry's import of each module it found: its edges carry the kept members
            elif not target or target.startswith("."):
                uncertain.append(Uncertain(info.path, dyn.line, dyn.text,
                                           "dynamic import of a name computed at run time; its targets cannot be "
                                           "known statically (checks must cover it)"))
        for text, line in summary.strings:
            if mm.is_internal(text):
                mod = mm.longest_module(text)
                if mod and mod != name and mod not in mm.top_names:
                    out.append(Edge(mod, "string", line, f"the string '{text}' names it"))
        for line, call in summary.dir_scans:
            _scan_edges(mm, name, info, line, call, registries, out, uncertain)
    for reg in registries:
        if reg.package in edges:
            for member in registry_members(mm, reg):
                edges[reg.package].append(Edge(member, "registry", 0, _registry_detail(reg, member)))
    return edges, missing, uncertain, type_only


def _where(imp: ImportEdge) -> str:
    bits = []
    if imp.scope != "module":
        bits.append(f"inside a {imp.scope}")
    if imp.condition:
        bits.append(imp.condition)
    if imp.type_checking:
        bits.append("TYPE_CHECKING only" if "if False" not in (imp.condition or "") else "never runs")
    return "; ".join(bits)


def _relative(package: str, target: str) -> str:
    level = len(target) - len(target.lstrip("."))
    parts = package.split(".")
    base = parts[: len(parts) - (level - 1)] if level > 1 else parts
    rest = target.lstrip(".")
    return ".".join(base + ([rest] if rest else []))


def _scan_edges(mm, name, info, line, call, registries, out, uncertain) -> None:
    """A directory scan: covered by a declared registry, or (when it scans its own package) keeps every sibling."""
    package = name if info.is_package else name.rsplit(".", 1)[0]
    if _covering_registry(name, info, registries) is not None:
        return  # the registry's own edges carry its members
    if "__path__" in call and ("__name__" in call or call.startswith(("pkgutil.iter_modules(__path__",
                                                                       "iter_modules(__path__"))) \
            or "dirname(__file__)" in call:
        for child in mm.children.get(package, []):
            if child != name:
                out.append(Edge(child, "scan", line, f"directory scan {call}"))
        return
    uncertain.append(Uncertain(info.path, line, call, "directory scan of a package named at run time: declare "
                                                      "it as [[registries]] to filter or keep its modules"))


def _covering_registry(name, info, registries):
    package = name if info.is_package else name.rsplit(".", 1)[0]
    for reg in registries:
        if name == reg.package or name.startswith(reg.package + ".") or package == reg.package:
            return reg
    return None


def registry_members(mm: ModuleMap, reg: RegistrySpec) -> list[str]:
    prefix = reg.package + "."
    out = []
    for name in mm.descendants(reg.package):
        rel = name[len(prefix):]
        if any(_match(pattern, rel) for pattern in reg.keep):
            out.append(name)
    return out


def _match(pattern: str, rel: str) -> bool:
    if pattern.startswith("re:"):
        return re.fullmatch(pattern[3:], rel) is not None
    return fnmatch.fnmatchcase(rel, pattern)


def _registry_detail(reg: RegistrySpec, member: str) -> str:
    rel = member[len(reg.package) + 1:]
    pattern = next(p for p in reg.keep if _match(p, rel))
    return f"registry {reg.package} keeps '{pattern}'" + (f" ({reg.reason})" if reg.reason else "")
