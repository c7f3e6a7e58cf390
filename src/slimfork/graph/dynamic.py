"""Edges of dynamic imports and directory scans. Unknown means keep: a name or a scanned package that cannot be
resolved exactly keeps every module it could mean, and the place is listed as uncertain with what it kept
(docs/soundness.md)."""

from __future__ import annotations

import posixpath

from slimfork.decisions import Uncertain
from slimfork.graph.built_names import ProjectUses, built_modules
from slimfork.graph.modules import ModuleMap, resolve_import
from slimfork.index.own_expr import MARK, evaluate_own
from slimfork.index.relative import absolute_module
from slimfork.index.scans import OWN, parse_param
from slimfork.index.summary import RUNTIME_PACKAGE, ImportEdge

DECLARE_IMPORT = ("declare the package it imports from as [[registries]] (kind scan), or keep what it needs with "
                  "`keep`; a check that runs it covers the rest")
RUNTIME_WHY = "dynamic import of a name computed entirely at run time"
DECLARE_OPEN = ("list its module in `outside_imports` if the names come from outside the project (a user's plugin), "
                "declare the package it imports from as [[registries]] (kind scan), or keep what it needs with `keep`")
LAZY_WHY = f"{RUNTIME_WHY} in a module __getattr__ (a lazy attribute, PEP 562)"
DECLARE_SCAN = "declare the scanned package as [[registries]] (kind scan) to keep only the modules it needs"


def dynamic_edges(mm: ModuleMap, name: str, info, summary, edges, missing, uncertain, covered,
                  vacated: frozenset[str] = frozenset(), attributes: dict[str, set[str]] | None = None,
                  uses: ProjectUses | None = None) -> None:
    """``edges``: (target, line, detail) appended; ``missing``: (line, target); ``uncertain``: Uncertain.
    ``vacated``: modules a registry cut emptied or no longer names, which a computed name does not keep.
    ``attributes``: class attribute -> the literal strings any class of the project binds it to."""
    for dyn in summary.dynamic_imports:
        if dyn.attribute and not dyn.target:  # for package in self.packages: import_module(package + name)
            starts = sorted(s for s in (attributes or {}).get(dyn.attribute, ()) if s)
            kept = sorted(m for m in mm.modules if mm.is_internal(m) and any(m.startswith(s) for s in starts))
            _keep_uncertain(edges, uncertain, info.path, dyn, name, kept, f"a start in self.{dyn.attribute}",
                            f"dynamic import of a name starting with a value of self.{dyn.attribute} "
                            f"({', '.join(repr(s) for s in starts) or 'none literal'}, from every class that binds "
                            f"it): kept all {len(kept)} modules they may name")
            continue
        # f"{__name__}.{group}": this module's name (or its package's)
        target, package = dyn.target and info.fill_own(dyn.target), dyn.package and info.fill_own(dyn.package)
        if target and target.startswith(MARK):  # ".".join(__name__.split(".")[:-1] + ["impl"]): evaluated here
            target = evaluate_own(target, name, info.own_package)
        lazy = dyn.lazy  # a lazy attribute whose name no prefix the module builds narrows: its whole package
        if not target and dyn.built:  # import_module(_LAZY[name]) where _LAZY holds f"{__name__}.{m}": all so named
            named, shown = built_modules(mm, info, dyn.built, uses or ProjectUses(None))
            if kept := [m for m in named if m not in vacated]:
                lazy = False
                _keep_uncertain(edges, uncertain, info.path, dyn, name, kept, "a name the module builds",
                                f"dynamic import of a name computed at run time; the module builds names "
                                f"{_listed(shown)}: kept all {len(kept)} modules they may name, or modules above"
                                + _vacated_note(len(named) - len(kept)))
        if target and target.startswith("."):
            if dyn.prefix and not target.strip(".") and summary.dir_scans:
                continue  # import_module(f".{name}", package=...) of the names a directory scan found
            if package and package != RUNTIME_PACKAGE:
                target = relative(package, target) + ("." if dyn.prefix and not target.strip(".") else "")
            else:  # relative to a package computed at run time: every module it could name in any package
                kept = _relative_anywhere(mm, target, dyn.prefix)
                _keep_uncertain(edges, uncertain, info.path, dyn, name, kept,
                                "a relative name, package computed at run time",
                                f"relative module name '{target}' against a package computed at run time: kept all "
                                f"{len(kept)} modules it may name")
                continue
        if target and target.startswith("*"):  # f"{app}.models" of a computed app: every module so named but
            # those a declared registry leaves out (SQLAlchemy's `__import__(package + ".provision")`: a SQLite fork
            # whose dialects registry keeps "sqlite" keeps no other dialect's provision module)
            named = [m for m in mm.matching(target) if mm.is_internal(m)]
            kept = [m for m in named if m not in vacated]
            _keep_uncertain(edges, uncertain, info.path, dyn, name, kept, f"a computed name ending '{target[1:]}'",
                            f"dynamic import of a computed name ending '{target[1:]}': kept all {len(kept)} "
                            "modules so named" + _vacated_note(len(named) - len(kept)))
            continue
        if summary.sys_path_folders and not (target and mm.is_internal(target)) \
                and (kept := on_sys_path(mm, info, summary.sys_path_folders, target, dyn.prefix)):
            what = f"'{target}{'...' if dyn.prefix else ''}'" if target else "a computed name"
            _keep_uncertain(edges, uncertain, info.path, dyn, name, kept, "a name on a folder it puts on sys.path",
                            f"dynamic import of {what} from the folders it puts on sys.path: kept all {len(kept)} "
                            "modules it may name")
            continue
        if target and not dyn.prefix:
            resolved = resolve_import(mm, name, ImportEdge(target, 0, (), dyn.line, "dynamic"))
            edges.extend((t, dyn.line, dyn.text) for t in resolved.targets if t != name)
            if not resolved.targets and mm.is_internal(target):
                missing.append((dyn.line, target))
        elif target and dyn.prefix and summary.dir_scans and target.rstrip(".") == name:
            continue  # f"{__name__}.{m.name}" over pkgutil.iter_modules(__path__): the scan's edges keep them
        elif target and mm.is_internal(target):
            named = sorted(m for m in mm.modules if m.startswith(target))
            kept = [m for m in named if m not in vacated]
            left = len(named) - len(kept)
            _keep_uncertain(edges, uncertain, info.path, dyn, name, kept, f"prefix '{target}'",
                            f"dynamic import with prefix '{target}': kept all {len(kept)} modules it may name"
                            + _vacated_note(left))
        elif covered or summary.dir_scans:
            continue  # the names a directory scan found: the scan's edges keep every module it may find
        elif not target and package and package != RUNTIME_PACKAGE and mm.is_internal(package):
            kept = sorted(m for m in [package, *mm.descendants(package)] if m in mm.modules)
            _keep_uncertain(edges, uncertain, info.path, dyn, name, kept, f"a computed name relative to {package}",
                            f"dynamic import of a computed name against the package {package}: kept all "
                            f"{len(kept)} modules of it")
        elif not target and (packages := _default_packages(mm, summary, dyn)):
            kept = sorted({m for p in packages for m in [p, *mm.descendants(p)] if m in mm.modules})
            where = ", ".join(packages)
            _keep_uncertain(edges, uncertain, info.path, dyn, name, kept,
                            f"a name computed at run time, its default in {where}",
                            f"dynamic import of a name computed at run time whose default names a module of {where}: "
                            f"kept all {len(kept)} modules of it")
        elif not target:  # graph/open_imports.py keeps the loose modules (and a lazy one's package) for it
            uncertain.append(Uncertain(info.path, dyn.line, dyn.text, LAZY_WHY if lazy else RUNTIME_WHY, (),
                                       DECLARE_OPEN))


def with_pth_folders(info, folders: list[tuple[str, int]], root, other_files: list[str]) -> list[tuple[str, int]]:
    """The folders a module puts on ``sys.path`` with those the ``.pth`` files in them list (``site.addsitedir``
    reads them: a line that is a path, relative to the ``.pth`` file's folder, joins ``sys.path``; session 44)."""
    here = posixpath.dirname(info.path or "")
    out = list(folders)
    for rel, line in folders:
        folder = posixpath.normpath(posixpath.join(here, rel))
        for path in other_files:
            if path.endswith(".pth") and posixpath.dirname(path) == ("" if folder == "." else folder):
                try:
                    with open(posixpath.join(str(root), path), encoding="utf-8", errors="replace") as f:
                        lines = f.read(64_000).splitlines()
                except OSError:
                    continue
                out += [(posixpath.normpath(posixpath.join(rel, entry.strip())), line) for entry in lines
                        if entry.strip() and not entry.startswith(("#", "import ", "import\t"))]
    return out


def on_sys_path(mm: ModuleMap, info, folders: list[tuple[str, int]], target: str | None, prefix: bool) -> list[str]:
    """The modules below the folders a module puts on ``sys.path`` whose name from there is ``target`` (or starts
    with it; any, for a name computed entirely at run time)."""
    here = posixpath.dirname(info.path or "")
    out = set()
    for rel, _ in folders:
        folder = posixpath.normpath(posixpath.join(here, rel))
        start = "" if folder == "." else folder + "/"
        for module, m in mm.modules.items():
            if m.path is None or not m.path.startswith(start) or not m.path.endswith(".py"):
                continue
            bare = m.path[len(start):-3].replace("/", ".").removesuffix(".__init__")
            if target is None or (bare.startswith(target) if prefix else bare == target):
                out.add(module)
    return sorted(out - {info.name})


def _keep_uncertain(edges, uncertain, path: str, dyn, name: str, kept: list[str], detail: str, why: str) -> None:
    """Keep every module a dynamic import may name (an edge each) and list the place as uncertain with them."""
    edges.extend((m, dyn.line, f"{dyn.text} ({detail})") for m in kept if m != name)
    uncertain.append(Uncertain(path, dyn.line, dyn.text, why, tuple(kept), DECLARE_IMPORT))


def _default_packages(mm: ModuleMap, summary, dyn) -> list[str]:
    """``import_module(os.environ.get("X", "pkg.backends.default"))``: the packages of the internal modules the
    call's own string literals name, or the literals its argument is derived from in the function (``mod, _, attr
    = spec.partition(":")``): the run-time value picks a sibling of the default."""
    out = set()
    for text in [t for t, _ in summary.strings if repr(t) in dyn.text] + list(dyn.defaults):
        if mm.is_internal(text) and (module := mm.longest_module(text)):
            package = module if mm.modules[module].is_package else module.rpartition(".")[0]
            if package:
                out.add(package)
    return sorted(out)


def _listed(names: list[str]) -> str:
    shown = ", ".join(repr(n) for n in names[:4])
    return shown + (f" and {len(names) - 4} more" if len(names) > 4 else "")


def _vacated_note(left: int) -> str:
    return f" but the {left} a registry cut emptied or no longer names" if left else ""


def relative(package: str, target: str) -> str:
    """``importlib.import_module(target, package)``'s module, for a ``target`` with leading dots."""
    rest = target.lstrip(".")
    return absolute_module(package, len(target) - len(rest), rest or None) or ""


def _relative_anywhere(mm: ModuleMap, target: str, prefix: bool) -> list[str]:
    """The internal modules ``P<target>`` names for some package P (a prefix: that start so)."""
    rest = target.lstrip(".")
    out = []
    for module in mm.modules:
        if not mm.is_internal(module) or "." not in module:
            continue
        tails = [module[i + 1:] for i, c in enumerate(module) if c == "."]
        if any(t.startswith(rest) if prefix else t == rest for t in tails):
            out.append(module)
    return sorted(out)


def scan_edges(mm: ModuleMap, name: str, info, scan, registries, edges, uncertain, callers, called) -> None:
    """A directory scan: an edge to every module of the scanned package (unless a registry filters it). One whose
    package is a parameter keeps the packages its callers pass as strings; one computed otherwise (a module object
    passed in, a folder from a setting) keeps every module of the project but what a declared registry filters:
    unknown means keep; but a parameter of a function no code of the project calls (a public utility,
    ``werkzeug.utils.find_modules``) scans the package of a caller outside the project. ``callers``: callee ->
    [(position or keyword, string)]; ``called(function, module)``: whether code other than the function's own
    definition in ``module`` names it."""
    line, call, package, deep = scan
    package = info.own_package if package == OWN else package and info.fill_own(package)
    if package is not None and parse_param(package) is None and not mm.is_internal(package):
        return  # another distribution's package: not ours to keep
    if package is not None and package in mm.modules and mm.modules[package].is_package:
        edges.extend((m, line, f"directory scan {call}") for m in _members(mm, package, deep, registries)
                     if m != name)
        return
    if covering_registry(name, info, registries) is not None:
        return  # a scan inside a declared registry's package is that registry's
    param = parse_param(package) if package else None
    passed = sorted({value for where, value in callers.get(param.function, ()) if where in (param.position, param.name)
                     and value in mm.modules and mm.modules[value].is_package}) if param else []
    if param is not None and not passed and not called(param.function, name):
        uncertain.append(Uncertain(info.path, line, call, f"directory scan of parameter '{param.name}' of "
                                   f"{param.function}(), which no code of the project calls: it scans the package "
                                   "its caller names; kept no module for it", (), DECLARE_SCAN))
        return
    if passed and param is not None:
        kept = sorted({m for p in passed for m in _members(mm, p, deep, registries)})
        what = f"the packages callers of {param.function}() pass as '{param.name}' ({', '.join(passed)})"
    else:  # a module object passed in, a folder computed at run time: any package of the project may be it
        kept = sorted(m for m in mm.modules if mm.is_internal(m) and not is_test_module(m)
                      and _unfiltered(m, registries))
        what = "the whole project (the scanned package is known only at run time)"
    edges.extend((m, line, f"directory scan {call} (package computed at run time)") for m in kept if m != name)
    named = f"parameter '{param.name}'" if param else f"'{package}'" if package else "a package named at run time"
    uncertain.append(Uncertain(info.path, line, call, f"directory scan of {named}: kept the {len(kept)} modules of "
                               f"{what}", tuple(kept), DECLARE_SCAN))


def _members(mm: ModuleMap, package: str, deep: bool, registries) -> list[str]:
    """What a scan of ``package`` finds; none for a registry's package (its own edges carry what it keeps)."""
    if _registry_of(package, registries) is not None:
        return []
    return mm.descendants(package) if deep else mm.children.get(package, [])


def is_test_module(module: str) -> bool:
    """A test module (`tests.x`, `pkg.tests.test_y`, `conftest`): no installed package's scan finds it."""
    parts = module.split(".")
    leaf = parts[-1]
    return any(p in ("tests", "test") for p in parts) or leaf.startswith("test_") or leaf.endswith("_test") \
        or leaf == "conftest"


def _unfiltered(module: str, registries) -> bool:
    """Not a member of a declared registry's package (the registry's own edges carry what it keeps)."""
    registry = _registry_of(module, registries)
    return registry is None or registry.package == module


def _registry_of(package: str, registries):
    return next((r for r in registries if package == r.package or package.startswith(r.package + ".")), None)


def covering_registry(name, info, registries):
    package = name if info.is_package else name.rsplit(".", 1)[0]
    for reg in registries:
        if name == reg.package or name.startswith(reg.package + ".") or package == reg.package:
            return reg
    return None
