"""Check 2: every internal import of the fork resolves, statically, from the index summaries.

``import a.b`` and ``from a import b`` need module ``a.b`` (a file, a package, or a namespace folder) in the
fork; ``from a import name`` needs ``name`` bound at module level in ``a``, or a submodule ``a.name``, or is
*unknown* (and so accepted) when ``a`` has a module ``__getattr__`` or a star import of a third-party module.
Star imports of internal modules are followed. Literal ``importlib.import_module("a.b")`` calls count too.
An import of a module that is gone is accepted inside ``try:`` with a handler that catches ImportError: the code
handles that module being absent (an optional feature the spec dropped); the runtime checks compare what it does
then. So is one under ``if TYPE_CHECKING:``: it never runs (``type_checking_imports = "ignore"`` removes modules
only such imports name), and so is a name such an import takes from a module that is there (symbol pruning
removes a class only annotations name). Any other missing *name* of a module that is there is a failure.
Failures are keyed without line numbers, so edits that move lines do not make old failures look new.
"""

from __future__ import annotations

import time
from pathlib import Path

from slimfork.index.relative import absolute_module
from slimfork.index.summary import GUARDED_TRY, RUNTIME_PACKAGE
from slimfork.verify.model import Baseline, CheckResult
from slimfork.verify.tree import Tree, TreeLayout, open_tree


class ImportsCheck:
    name = "imports"
    cost = 2

    def __init__(self, layout: TreeLayout):
        self.layout = layout

    def baseline(self, original: Path) -> Baseline:
        start = time.monotonic()
        tree = open_tree(original, self.layout, original=True)
        broken = unresolved_imports(tree)
        return Baseline(self.name, True, {"broken": set(broken), "tree": tree}, _note(tree, broken),
                        time.monotonic() - start)

    def run(self, fork: Path, baseline: Baseline) -> CheckResult:
        start = time.monotonic()
        tree = open_tree(fork, self.layout)
        original: Tree = baseline.data["tree"]
        new = {key: found for key, found in unresolved_imports(tree).items() if key not in baseline.data["broken"]}
        failures, paths = [], []
        for rel, message, module in sorted(new.values()):
            failures.append(message)
            # the importer, and the module that lost itself or the name (in the original: what a batch removed)
            for path in (rel, original.modules.get(module)):
                if path and path not in paths:
                    paths.append(path)
        return CheckResult(self.name, not new, tuple(failures), tuple(paths), time.monotonic() - start)


def _note(tree: Tree, broken: dict[str, tuple[str, str, str]]) -> str:
    """How many imports the original already leaves unresolved; those into a namespace package (``google.auth``
    from ``google.cloud``'s tree) name another distribution's part of it, not a module this tree lost."""
    if not broken:
        return "every internal import resolves"
    shared = sum(_in_shared_namespace(tree, module) for _, _, module in broken.values())
    elsewhere = f" ({shared} of them into a namespace package other distributions share)" if shared else ""
    return f"{len(broken)} imports do not resolve in the original{elsewhere}"


def _in_shared_namespace(tree: Tree, module: str) -> bool:
    """Is the closest package of ``module`` this tree has a namespace package (a folder with no __init__.py)?"""
    parts = module.split(".")
    for i in range(len(parts), 0, -1):
        name = ".".join(parts[:i])
        if tree.is_module(name):
            return name in tree.namespaces
    return False


def unresolved_imports(tree: Tree) -> dict[str, tuple[str, str, str]]:
    """Every internal import that does not resolve: key -> (importing file, readable message, module at fault)."""
    out: dict[str, tuple[str, str, str]] = {}
    resolver = _Resolver(tree)
    for rel in tree.shas:
        summary = tree.summary(rel)
        if summary.error:
            continue  # the parse check reports it
        module = tree.layout.module_of(rel)
        package = module if rel.endswith("__init__.py") else (module.rpartition(".")[0] if module else None)
        for edge in summary.imports:
            base = _absolute(edge.module, edge.level, package)
            if base is None or not tree.layout.internal(base):
                continue
            if not tree.is_module(base):
                # a module the code can do without, or one only type checkers read, is not broken
                if GUARDED_TRY not in (edge.condition or "") and not edge.type_checking:
                    out[f"{rel}: {base}"] = (rel, f"{rel}:{edge.line}: {_statement(edge)}: no module {base}", base)
                continue
            if edge.kind != "from" or edge.type_checking:
                continue
            for name in edge.names:
                if name != "*" and not resolver.finds(base, name):
                    out[f"{rel}: {base}.{name}"] = (
                        rel, f"{rel}:{edge.line}: from {base} import {name}: {base} has no name or submodule '{name}'",
                        base)
        for dyn in summary.dynamic_imports:
            if dyn.target is None or dyn.prefix or dyn.target.startswith("{="):
                continue  # a computed name; {=EXPR}: one the graph evaluates
            target = dyn.target
            if "{__" in target and module:  # f"{__name__}.{group}" over literal groups
                target = target.replace("{__name__}", module).replace("{__package__}", package or "")
            name = target.lstrip(".")
            against = dyn.package
            if against and "{__" in against and module:  # import_module(".x", __name__)
                against = against.replace("{__name__}", module).replace("{__package__}", package or "")
            if name != target and (against is None or against == RUNTIME_PACKAGE):
                continue  # relative to a package computed at run time
            base = _absolute(name or None, len(target) - len(name), against)
            if base and tree.layout.internal(base) and not tree.is_module(base):
                out[f"{rel}: {base}"] = (rel, f"{rel}:{dyn.line}: {dyn.text}: no module {base}", base)
    return out


def _statement(edge) -> str:
    if edge.kind != "from":
        return f"import {edge.module}"
    names = ", ".join(edge.names[:4]) + (", ..." if len(edge.names) > 4 else "")
    return f"from {'.' * edge.level}{edge.module or ''} import {names}"


def _absolute(module: str | None, level: int, package: str | None) -> str | None:
    if level and (not package or level - 1 >= len(package.split("."))):
        return None  # Python: "attempted relative import beyond top-level package"
    return absolute_module(package or "", level, module)


class _Resolver:
    def __init__(self, tree: Tree):
        self.tree = tree
        self.memo: dict[tuple[str, str], bool] = {}

    def finds(self, module: str, name: str) -> bool:
        key = (module, name)
        if key not in self.memo:
            self.memo[key] = self._finds(module, name, frozenset({module}))
        return self.memo[key]

    def _finds(self, module: str, name: str, seen: frozenset[str]) -> bool:
        tree = self.tree
        if tree.is_module(f"{module}.{name}"):
            return True
        rel = tree.modules.get(module)
        if rel is None:
            return False  # a namespace package has only its submodules
        if tree.is_extension(module):
            return True  # a compiled module: its names are unknown
        summary = tree.summary(rel)
        answers = summary.symbols.getattr_answers  # a module __getattr__ that writes its names out answers those
        if summary.error or name in summary.defs or summary.module_getattr and (answers is None or name in answers):
            return True  # a file that does not parse is the parse check's failure, not this one's
        package = module if rel.endswith("__init__.py") else module.rpartition(".")[0]
        for edge in summary.imports:
            if edge.kind != "from" or "*" not in edge.names or edge.scope != "module":
                continue
            target = _absolute(edge.module, edge.level, package)
            if target is None or not tree.layout.internal(target) or not tree.is_module(target):
                return True  # a star import we cannot see through: unknown, so accepted
            if target in seen:
                continue
            exported = self._star_exports(target)
            if exported is not None:
                if name in exported:
                    return True
            elif not name.startswith("_") and self._finds(target, name, seen | {target}):
                return True
        return False

    def _star_exports(self, module: str) -> set[str] | None:
        """Names ``from module import *`` binds when ``__all__`` is literal; None when it is not."""
        rel = self.tree.modules.get(module)
        if rel is None:
            return set()
        summary = self.tree.summary(rel)
        if summary.all_names is None or summary.all_dynamic:
            return None
        return set(summary.all_names)
