"""Edges of the module graph: imports, dynamic imports, module-naming strings, registries and directory scans."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, replace
from typing import NamedTuple

from slimfork.graph.data_files import data_file_edges, files_by_name, named_file_modules
from slimfork.graph.frameworks import framework_edges
from slimfork.graph.built_names import ProjectUses
from slimfork.graph.dynamic import on_sys_path, covering_registry, dynamic_edges, scan_edges, \
    with_pth_folders
from slimfork.graph.modules import ModuleMap, resolve_import
from slimfork.index.build import Index
from slimfork.index.own_expr import MARK, evaluate_own
from slimfork.index.summary import ImportEdge
from slimfork.decisions import Uncertain
from slimfork.errors import Stale, closest
from slimfork.spec.model import RegistrySpec
from slimfork.spec.stale import key_matches, stale_keys
from slimfork.source.test_folders import is_test_file


class Edge(NamedTuple):
    target: str
    kind: str  # import, from, parent, dynamic, string, path, native (Cython), registry, scan, main
    line: int = 0
    detail: str = ""  # condition, registry pattern, call text


@dataclass(frozen=True)
class MissingImport:
    module: str
    path: str
    line: int
    target: str


def build_edges(mm: ModuleMap, index: Index, registries: list[RegistrySpec], type_checking: bool = True,
                vacated: frozenset[str] = frozenset(), api=None):
    edges: dict[str, list[Edge]] = {name: [] for name in mm.modules}
    missing: list[MissingImport] = []
    uncertain: list[Uncertain] = []
    type_only: dict[str, list[tuple[str, int]]] = {}  # target -> (importer, line) of skipped TYPE_CHECKING imports
    callers: dict[str, list[tuple[int | str, str]]] = {}
    for summary in index.files.values():
        for callee, where, value in summary.literal_calls:
            callers.setdefault(callee, []).append((where, value))
    by_module = {mm.module_of(path): summary for path, summary in index.files.items()}
    uses = ProjectUses(index, api)  # what the project's calls pass the parameters built names are made from
    attribute_strings: dict[str, set[str]] = {}  # class attribute -> the strings any class binds it to
    for path, summary in index.files.items():
        info = mm.modules.get(mm.module_of(path) or "")
        for attribute, strings in summary.class_strings:  # "{__package__}.backends": the defining module's
            attribute_strings.setdefault(attribute, set()).update(
                info.fill_own(s) if s.startswith("{__") and info is not None else s for s in strings)

    def named_elsewhere(function: str, module: str) -> bool:
        """Does code other than ``function``'s own definition in ``module`` name it (a call, an attribute, a
        string)? ``__all__`` does not count."""
        for other, summary in by_module.items():
            for st in summary.symbols.statements:
                if other == module and st.kind == "def" and function in st.binds or "__all__" in st.binds:
                    continue
                if function in st.names or function in st.strings or any(c[-1] == function for c in st.chains):
                    return True
        return False

    present = set(index.files)
    test_dirs = _pytest_folders(present)
    filtered = registry_filtered(mm, registries)
    loaders = {reg.package for reg in registries}
    package_folders = {posixpath.dirname(info.path) for top in mm.top_names
                       if (info := mm.modules.get(top)) and info.is_package and info.path}
    folders: dict[str, list[str]] = {}  # folder -> the modules below it
    for name, info in mm.modules.items():
        for folder in _ancestors(info.path or ""):
            folders.setdefault(folder, []).append(name)
    data_root, data_files = index.data_from or (index.root, index.other_files)
    data_by_name = files_by_name(data_files)
    for name, info in mm.modules.items():
        out = edges[name]
        if "." in name:
            out.append(Edge(name.rsplit(".", 1)[0], "parent", 0, "a module's parent package is imported first"))
        if info.path is None:
            continue
        summary = index.files[info.path]
        if summary.sys_path_folders and any(p.endswith(".pth") for p in data_files):
            summary = replace(summary, sys_path_folders=with_pth_folders(info, summary.sys_path_folders, data_root,
                                                                         data_files))
        covered = covering_registry(name, info, registries) if summary.dir_scans else None
        for imp in summary.imports:
            resolved = resolve_import(mm, name, imp)
            if imp.type_checking and not type_checking:
                for target in resolved.targets:
                    type_only.setdefault(target, []).append((name, imp.line))
                continue
            where = _where(imp) if imp.scope != "module" or imp.condition or imp.type_checking else ""
            targets, kind = list(resolved.targets), imp.kind
            if not targets and summary.sys_path_folders and imp.module and not imp.level:
                # setup.py's sys.path.insert(0, join(HERE, "src", "pkg")) then `from _flags import X`: imported
                # by a name that is not its module's, so its names are read whole (session 44: `import extramod`
                # then `extramod.VALUE`, VALUE pruned)
                targets, kind = on_sys_path(mm, info, summary.sys_path_folders, imp.module, False), "path"
            for target in targets:
                if target != name:
                    out.append(Edge(target, kind, imp.line, where))
            beside: list[str] = []
            if not targets and imp.level == 0 and imp.module and is_test_file(info.path):
                # a test inside a package imports a helper beside it by a bare name (flash-attention's
                # hopper/test_flash_attn.py: `from padding import pad_input`): run from its folder (python -m
                # pytest, or as a script), that folder is first on sys.path
                own = posixpath.dirname(info.path)
                beside = [t for t, _f in _pytest_path_import(mm, present, info.path, imp, {own}) if t != name]
                if beside:
                    out += [Edge(t, imp.kind, imp.line, f"'{own}' is on sys.path when the test runs from it")
                            for t in beside if t not in targets]
            for target in resolved.missing if not beside else ():
                missing.append(MissingImport(name, info.path, imp.line, target))
            if resolved.missing and imp.level and not beside \
                    and posixpath.join(posixpath.dirname(info.path), "__init__.py") not in index.files:
                out += _relative_elsewhere(mm, name, info.path, imp, uncertain)  # no package's module: run as text
            if not resolved.missing and imp.level == 0 and imp.module and test_dirs:
                # also where the tree answers elsewhere: pytest's folder comes first on sys.path (exllamav3's
                # tests/test_quant_fn.py imports tests/util.py by `from util import x`, beside a top-level util/)
                for target, folder in _pytest_path_import(mm, present, info.path, imp, test_dirs):
                    if target != name and target not in targets:
                        out.append(Edge(target, imp.kind, imp.line, f"pytest puts '{folder}' on sys.path"))
        found: list = []
        lost: list = []
        dynamic_edges(mm, name, info, summary, found, lost, uncertain, covered, vacated | filtered, attribute_strings,
                      uses)
        out.extend(Edge(target, "dynamic", line, detail) for target, line, detail in found)
        missing.extend(MissingImport(name, info.path, line, target) for line, target in lost)
        for held, line in summary.strings:
            # f"{__name__}.ops": a submodule of this module (or of its package); code held as text a package up
            texts = mm.code_import_targets(info, held) if "{__package__}.." in held else \
                [t for t in [evaluate_own(held, name, info.own_package)] if t] if held.startswith(MARK) else \
                [info.fill_own(held)]  # {=EXPR}: a name built from the module's own name (index/open_names.py)
            for text in texts:
                _string_edge(mm, index, name, info.path, text, line, out)
        if name in loaders:  # a registry package's own loader: a module it loads by a literal name is one of its
            # entries too (SQLAlchemy's `__import__("sqlalchemy.dialects.mysql.mariadb")` for the "mariadb" key)
            out[:] = [e for e in out if e.kind not in ("dynamic", "string") or e.target not in filtered]
        for text, line in summary.path_strings:
            here = posixpath.dirname(info.path)
            for path in (posixpath.normpath(text), posixpath.normpath(posixpath.join(here, text))):
                if path in index.files and (mod := mm.module_of(path)) and mod != name:
                    out.append(Edge(mod, "path", line, f"the path '{text}' names its file"))
                    break
        for text, line in summary.folder_strings:
            if "." in text and "/" not in text and text in mm.modules and mm.modules[text].is_package:
                # resources.files("pkg.templates"): a subpackage whose files are data
                out += [Edge(m, "path", line, f"the package '{text}' has its files read as resources")
                        for m in mm.descendants(text) if m != name]
                continue
            text = text[2:] if text.startswith("./") else text
            for target in _folder_modules(folders, info.path, text, package_folders):
                if target != name:
                    out.append(Edge(target, "path", line, f"the folder '{text}' is read by its path"))
        for text, line in summary.data_names if info.path != "setup.py" else ():  # "plugins.txt" beside the
            # packages: what it names (setup.py's own reads of setup.cfg are the build rules')
            for path, target in named_file_modules(mm, str(data_root), data_by_name, text):
                if target != name:
                    out.append(Edge(target, "string", line, f"the data file {path} ('{text}') names it"))
        for scan in summary.dir_scans:
            found = []
            scan_edges(mm, name, info, scan, registries, found, uncertain, callers, named_elsewhere)
            out.extend(Edge(target, "scan", line, detail) for target, line, detail in found)
    for package, target, kind, why in data_file_edges(mm, str(data_root), data_files):
        edges[package].append(Edge(target, kind, 0, why))
    for package, target, why in framework_edges(mm, index):
        edges[package].append(Edge(target, "scan", 0, why))
    for reg in registries:
        if reg.package in edges:
            for member in registry_members(mm, reg):
                edges[reg.package].append(Edge(member, "registry", 0, _registry_detail(reg, member)))
    return edges, missing, uncertain, type_only


def _relative_elsewhere(mm: ModuleMap, name: str, path: str, imp: ImportEdge, uncertain: list[Uncertain]
                        ) -> list[Edge]:
    """A relative import that names nothing where its file sits (``from .plugins import alpha`` in a ``.py`` file
    of a folder without ``__init__.py``, read with ``pkgutil.get_data`` and ``exec``'d in its package; a module of
    a regular package is imported as one, and its missing import is only that): the file
    runs under another package, so every module so named stays (``*.plugins``, ``*.plugins.alpha``), read whole
    (session 43: the plugin left, exit 0)."""
    tail = imp.module or ""
    ends = ([tail] if tail else []) + [f"{tail}.{n}".lstrip(".") for n in imp.names if n != "*"]
    kept = sorted({m for end in ends for m in mm.matching(f"*.{end}") if m != name and mm.is_internal(m)})
    if not kept:
        return []
    what = f"from {'.' * imp.level}{tail} import {', '.join(imp.names)}"
    uncertain.append(Uncertain(path, imp.line, what, "a relative import that names nothing where its file sits",
                               tuple(kept)))
    return [Edge(m, "dynamic", imp.line, f"{what}: names nothing beside it; may run in another package")
            for m in kept]


def _string_edge(mm: ModuleMap, index, name: str, path: str, text: str, line: int, out: list[Edge]) -> None:
    if "*" in text:  # f"{_PKG}._{vendor}.ops": every module the pattern matches (unknown means keep)
        out += [Edge(mod, "string", line, f"the pattern '{text}' may name it") for mod in
                mm.matching(text) if mod != name]
    elif mm.is_internal(text):
        mod = mm.longest_module(text)
        if mod and mod != name and mod not in mm.top_names:
            out.append(Edge(mod, "string", line, f"the string '{text}' names it"))
    elif mod := _beside_module(mm, index, path, text):
        out.append(Edge(mod, "string", line, f"the string '{text}' names it from '{posixpath.dirname(path)}', "
                                             "first on sys.path when it runs as a script"))


def _pytest_folders(present: set[str]) -> set[str]:
    """The folders pytest puts on ``sys.path`` for the tests and conftests of the tree (its default "prepend"
    import mode): a test's folder, or the first folder above it without an ``__init__.py``. A test there imports
    a helper beside it by a bare name (``from utils import dtype_tols`` in ``tests/pytorch/``)."""
    out = set()
    for path in present:
        if not is_test_file(path):
            continue
        folder = posixpath.dirname(path)
        while folder and f"{folder}/__init__.py" in present:
            folder = posixpath.dirname(folder)
        if folder:  # the root is on sys.path anyway; its files are modules by their own names
            out.add(folder)
    return out


def _pytest_path_import(mm: ModuleMap, present: set[str], path: str, imp: ImportEdge, test_dirs: set[str]
                        ) -> list[tuple[str, str]]:
    """(module, folder) for an absolute import nothing in the tree answers that resolves in a folder pytest puts on
    ``sys.path`` above ``path`` (``from references.quantize_scale_calc import x`` in ``tests/pytorch/references/``)."""
    assert imp.module is not None
    out: list[tuple[str, str]] = []
    for folder in reversed(_ancestors(path)):  # the nearest first
        if folder not in test_dirs:
            continue
        base = posixpath.join(folder, *imp.module.split("."))
        for candidate in [base + ".py", base + "/__init__.py"] + [f"{base}/{n}.py" for n in imp.names if n != "*"]:
            if candidate in present and (module := mm.module_of(candidate)):
                out.append((module, folder))
        if out:
            break
    return out


def _ancestors(path: str) -> list[str]:
    parts = path.split("/")[:-1]
    return ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]


def _folder_modules(folders: dict[str, list[str]], path: str, text: str, package_folders: set[str]) -> list[str]:
    """The modules below the folder ``text`` names beside the file, else in its top-level package's folder
    (``Path(pkg.__file__).parent / "templates"`` from a submodule). A top-level package's own folder keeps
    nothing: ``root / "transformer_engine"`` in a build script is an include folder or a version file's, and the
    package is a root whose modules its imports reach."""
    above = _ancestors(path)
    if text == ".":  # a file of the naming module's own folder, by a computed name
        return folders.get(above[-1] if above else "", [])
    for base in dict.fromkeys((above[-1:] or [""]) + above[:1] + (above[1:2] if above[:1] == ["src"] else [])):
        folder = posixpath.normpath(posixpath.join(base, text))
        if folder in folders and folder not in above:
            return [] if folder in package_folders else folders[folder]
    return []


def _where(imp: ImportEdge) -> str:
    bits = []
    if imp.scope != "module":
        bits.append(f"inside a {imp.scope}")
    if imp.condition:
        bits.append(imp.condition)
    if imp.type_checking:
        bits.append("TYPE_CHECKING only" if "if False" not in (imp.condition or "") else "never runs")
    return "; ".join(bits)


def registry_members(mm: ModuleMap, reg: RegistrySpec) -> list[str]:
    prefix = reg.package + "."
    out = []
    for name in mm.descendants(reg.package):
        rel = name[len(prefix):]
        if any(_match(pattern, rel) for pattern in reg.keep):
            out.append(name)
    return out


def registry_filtered(mm: ModuleMap, registries: list[RegistrySpec]) -> frozenset[str]:
    """The modules of declared registries' packages that they do not keep (neither a member nor below one): a name
    computed at run time inside the package (python-stdnum's ``__import__('stdnum.%s' % cc, ..., [name])``) names
    one of what the registry keeps, as its directory scan does; the uncertain entry's advice says to declare it."""
    out: set[str] = set()
    for reg in registries:
        members = registry_members(mm, reg)
        out |= {m for m in mm.descendants(reg.package)
                if not any(m == k or m.startswith(k + ".") for k in members)}
    return frozenset(out)


def stale_scan_registries(mm: ModuleMap, registries: list[RegistrySpec]) -> list[Stale]:
    """A scanned package the source no longer has, and each keep pattern that matches none of its modules."""
    out = []
    for reg in registries:
        info = mm.modules.get(reg.package)
        if info is None or not info.is_package:
            packages = [n for n, m in mm.modules.items() if m.is_package and mm.is_internal(n)]
            out.append(Stale(f"{reg.key}.package", "registry", f"no package '{reg.package}' in the source",
                             closest(reg.package, packages), "name the scanned package"))
            continue
        prefix = reg.package + "."
        out += stale_keys(reg.key, reg.keep, [name[len(prefix):] for name in mm.descendants(reg.package)],
                          f"the modules of {reg.package}")
    return out


_match = key_matches


def _registry_detail(reg: RegistrySpec, member: str) -> str:
    rel = member[len(reg.package) + 1:]
    pattern = next(p for p in reg.keep if _match(p, rel))
    return f"registry {reg.package} keeps '{pattern}'" + (f" ({reg.reason})" if reg.reason else "")


_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")


def _beside_module(mm: ModuleMap, index, path: str | None, text: str) -> str | None:
    """The module a dotted string names relative to its file's own folder, which Python puts first on sys.path
    when the file runs as a script (django-js-asset 5.0.0's ``tests/manage.py``: ``DJANGO_SETTINGS_MODULE`` is
    ``"testapp.settings"``, the file ``tests/testapp/settings.py``, which the audit called unreached). Only a file
    of a folder that is no package: sglang's ``kernels/ops/attention/__init__.py`` lists ``"linear.kda_nvidia_prefill"``
    as a kernel's relative module, which the flagship's kernel registry cuts."""
    folder = posixpath.dirname(path or "")
    if not folder or not _DOTTED.fullmatch(text) or f"{folder}/__init__.py" in index.files:
        return None  # a package's module does not run as a script from its folder
    stem = posixpath.join(folder, *text.split("."))
    for candidate in (stem + ".py", stem + "/__init__.py"):
        if candidate in index.files:
            return mm.module_of(candidate)
    return None
