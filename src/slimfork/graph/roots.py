"""Turn the spec's roots into modules of the tree, or stop with the key path and a hint."""

from __future__ import annotations

import posixpath

from dataclasses import dataclass

from slimfork.errors import SpecError, Stale, did_you_mean
from slimfork.globs import first_match, match_modules
from slimfork.graph.data_files import run_roots
from slimfork.graph.doc_config import sphinx_extensions
from slimfork.graph.modules import ModuleMap, resolve_import
from slimfork.index.build import Index
from slimfork.source.build_scripts import FORCED, build_scripts
from slimfork.source.declared_entry_points import computed_entry_points
from slimfork.source.build_config import installed_scripts, listed_packages, script_imports, tool_config_names
from slimfork.source.listed_cuts import cut_listed, listed_in
from slimfork.source.test_folders import TEST_DIRS, is_test_file
from slimfork.source.layout import SourceTree
from slimfork.spec.model import Root


@dataclass(frozen=True)
class RootModule:
    module: str
    reason: str  # "root 'script:sglang' (sglang.cli.main:main)"


def stale_roots(roots: list[Root], tree: SourceTree, index: Index, mm: ModuleMap) -> list[Stale]:
    """The roots that name nothing in the source (a module, symbol, script or file a new release removed)."""
    out = []
    for i, root in enumerate(roots):
        try:
            _resolve(root, f"roots[{i}]", tree, index, mm)
        except SpecError as exc:
            suggestion = None
            if exc.hint and exc.hint.startswith("did you mean "):
                suggestion = exc.hint[len("did you mean "):].rstrip("?")
            out.append(Stale(exc.key or f"roots[{i}]", "root", exc.message, suggestion,
                             "" if suggestion else exc.hint or ""))
    return out


COMPUTED_ENTRY_POINT = "an entry point setup.py builds at run time"
# a module a script without a .py suffix imports: the script is no module, so its reads of the names are not
# seen; the symbol stage keeps every name (session 44: bin/demotool's gen.RESULT was pruned)
SCRIPT_IMPORT = "imported by a script the build installs"
_STARTUP_MODULES = frozenset({"sitecustomize", "usercustomize"})


def resolve_roots(roots: list[Root], tree: SourceTree, index: Index, mm: ModuleMap) -> list[RootModule]:
    out: list[RootModule] = []
    for i, root in enumerate(roots):
        out.extend(_resolve(root, f"roots[{i}]", tree, index, mm))
    for group, entries in sorted((tree.dist.entry_points if tree.dist else {}).items()):
        for name, value in sorted(entries.items()):
            module = value.split(":")[0].strip()
            if module in mm.modules:
                out.append(RootModule(module, f"entry point [{group}] {name} = {value} (declared in the metadata)"))
    for pattern in computed_entry_points(tree.root) if tree.kind != "wheel" else ():
        for module in mm.matching(pattern) if "*" in pattern else [pattern] if pattern in mm.modules else []:
            out.append(RootModule(module, f"{COMPUTED_ENTRY_POINT} ('{pattern}' with its computed part: every "
                                          "module it may name, with every name it defines)"))
    if tree.kind != "wheel":  # the fork keeps the source's build metadata as written: its commands must work
        for name, value in sorted((tree.dist.scripts if tree.dist else {}).items()):
            module = value.split(":")[0].strip()
            if module in mm.modules:
                out.append(RootModule(module, f"console script {name} = {value} (declared in the build metadata, "
                                              f"which the fork keeps)"))
    for module in [m for m, info in mm.modules.items() if m.rpartition(".")[2] in _STARTUP_MODULES and info.path
                   and posixpath.join(posixpath.dirname(info.path), "__init__.py") not in index.files]:
        # src/sitecustomize.py: imported whenever its folder is on sys.path at startup (PYTHONPATH=src); nothing
        # in the project imports it (session 44: it left the fork)
        out.append(RootModule(module, "a module Python's site imports at startup (sitecustomize, usercustomize)"))
    for module, why in run_roots(mm, str(tree.root), index.other_files, _outside_scripts(tree, index, mm)):
        out.append(RootModule(module, why))
    for path, why in build_scripts(tree.root, list(index.files)).items():  # what they import or open must stay
        if (script := mm.module_of(path)) is not None:
            out.append(RootModule(script, f"{path}: {why}" + ("" if why == FORCED else
                                                               ", which pip runs to install the fork")))
    for name, where in tool_config_names(tree.root) if tree.kind != "wheel" else ():
        named = mm.longest_module(name) if mm.is_internal(name) else None
        if named is not None and named not in mm.top_names:
            out.append(RootModule(named, f"named by pyproject.toml's [{where}] ('{name}'): the project's own "
                                          "settings, which its code may resolve at run time"))
    for name, path in sphinx_extensions(tree.root, index.files) if tree.kind != "wheel" else ():
        if name in mm.modules:
            out.append(RootModule(name, f"a Sphinx extension {path} loads (its `extensions`): the docs build imports it"))
    for path in installed_scripts(tree.root) if tree.kind != "wheel" else ():
        if tree.drop and first_match(list(tree.drop), path) is not None:
            continue  # dropped: the fork's build configuration no longer installs it (source/entry_drops.py)
        if (script := mm.module_of(path)) is not None:
            out.append(RootModule(script, f"{path}: a script the build installs"))
            continue
        for module in script_imports(tree.root / path):  # bin/tool without .py: what it imports
            if module in mm.modules:
                out.append(RootModule(module, f"{SCRIPT_IMPORT} ({path})"))
    rooted = {r.module for r in out}
    for package in listed_packages(tree.root) if tree.kind != "wheel" else ():
        if package in mm.modules and not _holds(package, rooted) and not _cuttable(tree, mm, package):
            out.append(RootModule(package, "listed by name in the build configuration's packages: the fork does "
                                           "not install without it"))
    return out


def _outside_scripts(tree: SourceTree, index: Index, mm: ModuleMap) -> tuple[str, ...]:
    """The Python files outside the packages that are no tests and no drop matches (the fork keeps them as
    written: task runners' files, tools); a test's children are the tests stage's
    (``tests/testsuite/test_run_as_main.py``)."""
    package_files = {info.path for info in mm.modules.values() if info.path and mm.is_internal(info.name)}
    return tuple(rel for rel in index.files if rel not in package_files and not is_test_file(rel)
                 and not any(part in TEST_DIRS for part in rel.split("/")[:-1])
                 and not (tree.drop and first_match(list(tree.drop), rel) is not None))


def _cuttable(tree: SourceTree, mm: ModuleMap, package: str) -> bool:
    """Whether the fork can drop a listed package from the build files' lists (source/listed_cuts.py): a regular
    package (its ``__init__.py``, whose removal the batches see) whose every listing can lose the entry. Then it is
    no root: kept where kept code reaches it, else cut from the list with its folder."""
    path = mm.modules[package].path
    if not path or not path.endswith("__init__.py"):
        return False
    cuts = cut_listed(tree.root, {package}, tree.entry_cuts)
    return cuts is not None and all(package not in listed_in(rel, data.decode("utf-8")) for rel, data in cuts.items())


def _holds(package: str, modules: set[str]) -> bool:
    """Whether ``package`` is one of ``modules`` or a package above one: the fork keeps it as their parent, so its
    folder exists for the build's ``packages`` list without making it a root (whose every public name stays)."""
    return any(m == package or m.startswith(package + ".") for m in modules)


def _resolve(root: Root, key: str, tree: SourceTree, index: Index, mm: ModuleMap) -> list[RootModule]:
    out: list[RootModule] = []
    if root.kind == "script":
        out.extend(_scripts(root, tree, mm, key))
    elif root.kind == "glob":
        for module in glob_modules(root.value, mm, key):
            out.append(RootModule(module, f"root '{root}'"))
            main = f"{module}.__main__"
            if mm.modules[module].is_package and main in mm.modules:
                out.append(RootModule(main, f"root '{root}' (python -m {module} runs __main__)"))
    elif root.kind == "file":
        of_file = mm.module_of(root.value.lstrip("./"))
        if of_file is None:
            raise SpecError(f"file '{root.value}' is not a Python file of the source", key=key,
                            hint="give a path relative to the source folder, e.g. 'file:scripts/run.py'")
        out.append(RootModule(of_file, f"root '{root}'"))
    else:
        _require_module(root.value, mm, key)
        if root.kind == "symbol":
            _require_symbol(root.value, root.symbol or "", index, mm, key)
        out.append(RootModule(root.value, f"root '{root}'"))
        main = f"{root.value}.__main__"
        if mm.modules[root.value].is_package and main in mm.modules:
            out.append(RootModule(main, f"root '{root}' (python -m {root.value} runs __main__)"))
        out += _dispatching_mains(root, index, mm)
    return out


def _dispatching_mains(root: Root, index: Index, mm: ModuleMap) -> list[RootModule]:
    """The ``__main__`` of a package above a root module that imports nothing of the project but the root and its
    packages (``from pkg.cli import main; main()``): ``python -m pkg`` runs the root, and keeps working."""
    out = []
    parts = root.value.split(".")
    allowed = {".".join(parts[:i]) for i in range(1, len(parts) + 1)}
    for i in range(len(parts) - 1, 0, -1):
        package = ".".join(parts[:i])
        main = f"{package}.__main__"
        info = mm.modules.get(main)
        summary = index.files.get(info.path) if info is not None and info.path else None
        if summary is None or summary.error or summary.dynamic_imports:
            continue
        targets = {t for imp in summary.imports for t in resolve_import(mm, main, imp).targets}
        if targets and targets <= allowed:
            out.append(RootModule(main, f"root '{root}' (python -m {package} runs __main__, which imports only "
                                             "the root)"))
    return out


def _scripts(root: Root, tree: SourceTree, mm: ModuleMap, key: str) -> list[RootModule]:
    scripts = tree.dist.scripts if tree.dist else {}
    if not scripts and root.value == "*" and tree.dropped_entries.get("console_scripts"):
        return []  # the spec's drop takes them all
    if not scripts:
        raise SpecError("the source declares no console scripts", key=key,
                        hint="use a module root ('pkg.cli') instead of 'script:'")
    names = sorted(scripts) if root.value == "*" else [root.value]
    out = []
    for name in names:
        if name in tree.dropped_entries.get("console_scripts", {}):
            raise SpecError(f"'{root}' keeps the console script '{name}', which the spec's drop removes", key=key,
                            hint="remove the root or the drop")
        if name not in scripts:
            raise SpecError(f"no console script named '{name}'", key=key,
                            hint=f"console scripts: {', '.join(sorted(scripts))}")
        module = scripts[name].split(":")[0].strip()
        _require_module(module, mm, key)
        out.append(RootModule(module, f"root '{root}' (console script {name} = {scripts[name]})"))
    return out


def glob_modules(pattern: str, mm: ModuleMap, key: str) -> list[str]:
    """The modules of the analysed packages a module glob matches; none is a spec error."""
    found = match_modules(pattern, [m for m in mm.modules if mm.is_internal(m)])
    if not found:
        head = pattern.split("*")[0].rstrip(".")
        known = head if head in mm.modules else None
        hint = (f"'{known}' has no public module matching it (a wildcard skips names that start with '_'; "
                f"write '{known}._*' for those)" if known else
                did_you_mean(head, mm.modules, "top-level packages: " + ", ".join(sorted(mm.top_names))))
        raise SpecError(f"the glob '{pattern}' matches no module", key=key, hint=hint)
    return found


def missing_symbol(module: str, name: str | None, index: Index, mm: ModuleMap, key: str) -> SpecError | None:
    """Why ``module`` (``module:name``) names nothing in the source, with the closest name as the hint; None if
    it exists."""
    try:
        _require_module(module, mm, key)
        if name:
            _require_symbol(module, name, index, mm, key)
    except SpecError as exc:
        return exc
    return None


def _require_module(name: str, mm: ModuleMap, key: str) -> None:
    if name not in mm.modules:
        raise SpecError(f"no module '{name}' in the source", key=key,
                        hint=did_you_mean(name, mm.modules, "check the spelling and 'packages'"))


def _require_symbol(module: str, symbol: str, index: Index, mm: ModuleMap, key: str) -> None:
    info = mm.modules[module]
    if info.path is None:
        raise SpecError(f"'{module}' is a namespace package and defines no '{symbol}'", key=key,
                        hint="name a module that defines it")
    summary = index.files[info.path]
    head = symbol.split(".")[0]
    star = any("*" in imp.names for imp in summary.imports)
    if summary.error is None and head not in summary.defs and not summary.module_getattr and not star \
            and f"{module}.{head}" not in mm.modules:
        raise SpecError(f"module '{module}' defines no '{head}'", key=key,
                        hint=did_you_mean(head, summary.defs, "names it defines: "
                                          + ", ".join(sorted(summary.defs)[:10])))
